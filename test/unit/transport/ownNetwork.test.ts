import { isOwnNetworkHost, plainHttpProblem } from '../../../nodes/transport/ownNetwork';
import { normalizeBaseUrl } from '../../../nodes/transport';

describe('isOwnNetworkHost: the hosts plain http may go to', () => {
	it('loopback, private, link-local and carrier-grade NAT addresses, IPv4 and IPv6', () => {
		for (const host of [
			'127.0.0.1',
			'127.8.9.10',
			'10.0.0.5',
			'172.16.0.1',
			'172.31.255.255',
			'192.168.1.20',
			'169.254.10.1',
			'100.64.0.1',
			'::1',
			'[::1]',
			'fd12:3456::1',
			'fe80::1',
			'::ffff:192.168.1.2',
		]) {
			expect([host, isOwnNetworkHost(host)]).toEqual([host, true]);
		}
	});

	it('names only your own network resolves: localhost, one label (a container), reserved private suffixes', () => {
		for (const host of [
			'localhost',
			'LOCALHOST',
			'crew-service',
			'api.localhost',
			'nas.local',
			'crew.internal',
			'host.docker.internal',
			'crew.lan',
			'crew.home.arpa',
		])
			expect([host, isOwnNetworkHost(host)]).toEqual([host, true]);
	});

	it('not public addresses or names', () => {
		for (const host of [
			'8.8.8.8',
			'172.32.0.1',
			'192.169.0.1',
			'100.128.0.1',
			'11.0.0.1',
			'2001:db8::1',
			'crew.example.com',
			'my-crew-1a2b3c.crewai.com',
			'localhost.example.com',
			'',
		]) {
			expect([host, isOwnNetworkHost(host)]).toEqual([host, false]);
		}
	});
});

describe('plainHttpProblem and the Base URL: one rule', () => {
	it('takes https anywhere and http on your own network only', () => {
		expect(plainHttpProblem(new URL('https://crew.example.com'))).toBeUndefined();
		expect(plainHttpProblem(new URL('http://127.0.0.1:8787'))).toBeUndefined();
		expect(plainHttpProblem(new URL('http://crew.example.com'))).toMatch(
			/only for a service on your own network/,
		);
		expect(plainHttpProblem(new URL('ftp://crew.example.com'))).toBe('it must start with https://');
	});

	it("is the Base URL's rule", () => {
		expect(normalizeBaseUrl(' http://127.0.0.1:8787/ ')).toBe('http://127.0.0.1:8787');
		expect(normalizeBaseUrl('https://crew.example.com')).toBe('https://crew.example.com');
		expect(() => normalizeBaseUrl('http://crew.example.com')).toThrow(
			'The Base URL "http://crew.example.com" cannot be used: http:// is taken only for a service on your own network (a private or loopback address, or a local name); use https://.',
		);
		expect(() => normalizeBaseUrl('crew.example.com')).toThrow(/must start with https:\/\//);
	});
});
