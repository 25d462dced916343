/**
 * The Crew node's versions and what each changed, in one place. n8n keeps the version a node
 * was added with in the saved workflow, so a change that would alter what a saved workflow does
 * comes with a new version, and the code asks here whether a node has it. Each gate is the
 * version from which the node behaves the new way; nodes saved with an earlier one keep what
 * they had.
 */

/**
 * 1.1: callback secrets come from the Crew API credential; 1 keeps the Webhook Secret option of the
 * unpublished 0.1.0.
 */
export const CREDENTIAL_CALLBACK_SECRETS_VERSION = 1.1;
/** 1.2: Deployment Type defaults to Detect (1 and 1.1 keep Crew, what they were saved with). */
export const DETECTING_VERSION = 1.2;
/**
 * 1.3: Kickoff and Wait stops the crews it started when the execution is cancelled (earlier
 * versions leave them running).
 */
export const STOP_ON_CANCEL_VERSION = 1.3;
/**
 * 1.4: Resume's Wait for the Resumed Run stops its runs on cancel and offers On Timeout, as Kickoff
 * and Wait does.
 */
export const RESUME_STOPS_VERSION = 1.4;
/**
 * 1.5: Resume's Wait for the Resumed Run offers Wait By, Polling or Callback, as Kickoff and
 * Wait does; and Send Files is a switch that starts off, with How to Send beside it (1.4 and
 * earlier open with Send Files: With the Kickoff and an empty Files list).
 */
export const HUMAN_IN_THE_LOOP_VERSION = 1.5;

export const CREW_NODE_VERSIONS = [
	1,
	CREDENTIAL_CALLBACK_SECRETS_VERSION,
	DETECTING_VERSION,
	STOP_ON_CANCEL_VERSION,
	RESUME_STOPS_VERSION,
	HUMAN_IN_THE_LOOP_VERSION,
];
export const DEFAULT_CREW_NODE_VERSION = HUMAN_IN_THE_LOOP_VERSION;

/** n8n's displayOptions condition for "this version or later". */
export function fromVersion(version: number) {
	return { _cnd: { gte: version } };
}

/** n8n's displayOptions condition for "before this version". */
export function beforeVersion(version: number) {
	return { _cnd: { lt: version } };
}
