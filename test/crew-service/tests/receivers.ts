/**
 * Loopback receivers for the calls the reference service makes (webhooks, the
 * event stream, human input, flow feedback): each records what arrived and
 * answers as the test asks. Every receiver a test starts is closed after it.
 */
import { startLoopbackReceiver } from '../../helpers/loopbackReceiver';
import type { Answer, LoopbackReceiver } from '../../helpers/loopbackReceiver';

export interface ReceivedCall {
	/** Path and query, as the service called them. */
	path: string;
	/** Lower-case names. */
	headers: Record<string, string>;
	contentType: string | undefined;
	raw: string;
	body: any;
}

export interface Receiver {
	base: string;
	/** A URL on the receiver shaped like n8n's production webhook URL. */
	url: string;
	received: ReceivedCall[];
	/** URLs for the three webhooks under a prefix, e.g. hooks('a') → {taskWebhookUrl: base/a/task, ...}. */
	hooks(prefix: string): { taskWebhookUrl: string; stepWebhookUrl: string; crewWebhookUrl: string };
}

/** A start function for receivers that answer `answer` (default 200) to every call. */
export function useReceivers(): (answer?: Answer) => Promise<Receiver> {
	let open: LoopbackReceiver[] = [];
	afterEach(async () => {
		await Promise.all(open.map(async (receiver) => await receiver.close()));
		open = [];
	});
	return async (answer = 200) => {
		const received: ReceivedCall[] = [];
		const receiver = await startLoopbackReceiver(async ({ url, headers, rawBody }) => {
			received.push({
				path: url,
				headers,
				contentType: headers['content-type'],
				raw: rawBody,
				body: JSON.parse(rawBody),
			});
			return answer;
		});
		open.push(receiver);
		const { base } = receiver;
		return {
			base,
			url: `${base}/webhook/abc/crew`,
			received,
			hooks: (prefix) => ({
				taskWebhookUrl: `${base}/${prefix}/task`,
				stepWebhookUrl: `${base}/${prefix}/step`,
				crewWebhookUrl: `${base}/${prefix}/crew`,
			}),
		};
	};
}
