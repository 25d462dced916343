import { isPlainObject } from '../records/plainObject';

const MAX_MESSAGE_LENGTH = 300;

function shorten(text: string): string {
	const oneLine = text.replace(/\s+/g, ' ').trim();
	return oneLine.length > MAX_MESSAGE_LENGTH
		? `${oneLine.slice(0, MAX_MESSAGE_LENGTH - 1)}…`
		: oneLine;
}

/** FastAPI's validation answer: `{"detail": [{"loc": [...], "msg": "...", "type": "..."}]}`. */
function readFastApiDetails(detail: unknown[]): string | undefined {
	const parts = detail
		.filter(isPlainObject)
		.map((entry) => {
			const location = Array.isArray(entry.loc)
				? entry.loc.filter((part) => part !== 'body').join('.')
				: '';
			const text = typeof entry.msg === 'string' ? entry.msg : '';
			return location ? `${location}: ${text}` : text;
		})
		.filter((part) => part !== '');
	return parts.length > 0 ? parts.join('; ') : undefined;
}

function readHtml(html: string): string | undefined {
	const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
	const heading = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
	const text = (title ?? heading ?? html.replace(/<[^>]+>/g, ' ')).replace(/<[^>]+>/g, ' ');
	return text.trim() ? shorten(text) : undefined;
}

/**
 * The service's own words from an error answer, whatever its shape: the
 * documented `{"error", "message"}`, FastAPI's `{"detail"}` (text or list),
 * plain text, or a proxy's HTML page. Undefined when there is nothing to read.
 */
export function readServiceMessage(body: unknown): string | undefined {
	if (body === undefined || body === null) return undefined;
	if (typeof body === 'string') {
		if (body.trim() === '') return undefined;
		return /<\/?[a-z][\s\S]*>/i.test(body) ? readHtml(body) : shorten(body);
	}
	if (!isPlainObject(body)) return undefined;
	const { message, error, detail } = body;
	const pieces: string[] = [];
	if (typeof error === 'string' && error.trim()) pieces.push(error.trim());
	if (isPlainObject(error) && typeof error.message === 'string') pieces.push(error.message);
	if (typeof message === 'string' && message.trim()) pieces.push(message.trim());
	if (typeof detail === 'string' && detail.trim()) pieces.push(detail.trim());
	if (Array.isArray(detail)) {
		const details = readFastApiDetails(detail);
		if (details) pieces.push(details);
	}
	return pieces.length > 0 ? shorten(pieces.join(': ')) : undefined;
}

/** Names of missing inputs in a 422 answer, in either documented or FastAPI form. */
export function readMissingInputs(body: unknown): string[] {
	if (!isPlainObject(body)) return [];
	const details = body.details;
	if (isPlainObject(details) && Array.isArray(details.missing_inputs)) {
		return details.missing_inputs.filter((name): name is string => typeof name === 'string');
	}
	// Live: `{"detail": "Missing inputs: audience, topic"}`, a plain string
	// (docs/development/service-api.md#errors).
	const listed =
		typeof body.detail === 'string'
			? /^\s*missing (?:required )?inputs?\s*:\s*(.+)$/i.exec(body.detail)?.[1]
			: undefined;
	if (listed !== undefined) {
		return listed
			.split(',')
			.map((name) => name.trim())
			.filter((name) => name !== '');
	}
	if (Array.isArray(body.detail)) {
		return body.detail
			.filter(isPlainObject)
			.filter((entry) => entry.type === 'missing' || /required/i.test(String(entry.msg ?? '')))
			.map((entry) => (Array.isArray(entry.loc) ? entry.loc[entry.loc.length - 1] : undefined))
			.filter(
				(name): name is string => typeof name === 'string' && name !== 'inputs' && name !== 'body',
			);
	}
	return [];
}
