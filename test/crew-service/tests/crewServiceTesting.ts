import { startCrewService } from '..';
import type { CrewService, CrewServiceOptions } from '..';

/**
 * For the reference service's own tests, which start a fresh service per
 * test: a start function whose services are all closed after each test.
 */
export function closedAfterEach(): (options?: CrewServiceOptions) => Promise<CrewService> {
	let open: CrewService[] = [];
	afterEach(async () => {
		await Promise.all(open.map((service) => service.close()));
		open = [];
	});
	return async (options) => {
		const service = await startCrewService(options);
		open.push(service);
		return service;
	};
}

/** A controllable clock so lifecycles are tested without waiting. */
export function fakeClock(start = 1_000_000) {
	let t = start;
	return {
		now: () => t,
		advance: (ms: number) => void (t += ms),
		set: (ms: number) => void (t = ms),
	};
}
