import { failureNotice, noticeText } from '../../../../nodes/Crew/methods/resourceMapping';

describe('the text shown in place of the input fields', () => {
	it('escapes markup, since n8n renders the notice as HTML', () => {
		expect(noticeText('<img src=x onerror="alert(1)"> & more')).toBe(
			'&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; more',
		);
	});

	it('gives what happened, what to do, and that the node must be opened again', () => {
		const error = Object.assign(
			new Error("The crew service answered 401 while reading the crew's inputs: Unauthorized"),
			{
				description: 'Check the bearer token in the Crew API credential.',
			},
		);
		expect(failureNotice(error)).toBe(
			"The crew service answered 401 while reading the crew's inputs: Unauthorized. Check the bearer token in the Crew API credential. Then open this node again to load the inputs.",
		);
	});

	it('does not double a full stop, and does without a description', () => {
		expect(failureNotice(new Error('Could not connect.'))).toBe(
			'Could not connect. Then open this node again to load the inputs.',
		);
	});
});
