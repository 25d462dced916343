/**
 * A streamed request body shaped as a Blob: n8n's request helper hands the body to
 * axios, and axios sends a Blob by reading its `stream()` chunk by chunk, with the
 * Blob's `size` as Content-Length and its `type` as Content-Type. A node may not
 * import node:stream (n8n Cloud's rules), and a Blob needs nothing from it.
 */
export class StreamedBody {
	constructor(
		readonly size: number,
		readonly type: string,
		private readonly chunks: () => AsyncGenerator<Buffer>,
	) {}

	get [Symbol.toStringTag](): string {
		return 'Blob';
	}

	/** Called once by the request; a second request needs a new body (see postAtMostOnce). */
	stream(): AsyncGenerator<Buffer> {
		return this.chunks();
	}
}

/** What a request sends: the streamed body and the headers that describe it. */
export interface StreamBody {
	stream: StreamedBody;
	contentType: string;
	contentLength: number;
}
