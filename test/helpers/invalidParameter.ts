// What the unit tests of the readers that check a user's parameters share.
import { InvalidParameterError } from '../../nodes/records/invalidParameter';

/** The InvalidParameterError `run` throws; the test fails when it throws nothing or another error. */
export function errorOf(run: () => unknown): InvalidParameterError {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(InvalidParameterError);
		return error as InvalidParameterError;
	}
	throw new Error('expected an InvalidParameterError, and nothing was thrown');
}
