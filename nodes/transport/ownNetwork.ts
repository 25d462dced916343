/**
 * The Base URL rule of the Crew API credential: `https://`, or `http://` only for a
 * service of your own on your network (the README's Base URL row). One function, used by
 * the credential's Base URL (normalizeBaseUrl) and by every other address the node sends
 * something secret to over the network (the Flow Feedback Request's callback URL).
 */

/**
 * 10/8, 172.16/12, 192.168/16, 127/8, 169.254/16 (link-local), 100.64/10 (carrier-grade NAT, a
 * VPN's own range).
 */
function isOwnIpv4(address: string): boolean {
	const parts = address.split('.').map(Number);
	if (parts.length !== 4 || parts.some((part) => !Number.isInteger(part) || part < 0 || part > 255))
		return false;
	const [a, b] = parts;
	return (
		a === 10 ||
		a === 127 ||
		(a === 172 && b >= 16 && b <= 31) ||
		(a === 192 && b === 168) ||
		(a === 169 && b === 254) ||
		(a === 100 && b >= 64 && b <= 127)
	);
}

/** ::1, fc00::/7 (unique local), fe80::/10 (link-local), and an IPv4 address written as IPv6. */
function isOwnIpv6(address: string): boolean {
	const text = address.toLowerCase();
	if (text === '::1') return true;
	const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
	if (mapped !== undefined) return isOwnIpv4(mapped);
	return /^f[cd][0-9a-f]{0,2}:/.test(text) || /^fe[89ab][0-9a-f]?:/.test(text);
}

/**
 * Names that only a network of your own resolves: one label (a container's name), or a suffix
 * reserved for private use.
 */
const OWN_NETWORK_SUFFIXES = ['.localhost', '.local', '.internal', '.lan', '.home.arpa'];

/**
 * True for a host on your own network: a loopback or private address, or a name only your network
 * resolves.
 */
export function isOwnNetworkHost(hostname: string): boolean {
	const host = hostname
		.toLowerCase()
		.replace(/^\[|\]$/g, '')
		.replace(/\.$/, '');
	if (host === '') return false;
	if (host.includes(':')) return isOwnIpv6(host);
	if (/^\d+(\.\d+){3}$/.test(host)) return isOwnIpv4(host);
	return (
		host === 'localhost' ||
		!host.includes('.') ||
		OWN_NETWORK_SUFFIXES.some((suffix) => host.endsWith(suffix))
	);
}

/**
 * Why an absolute URL may not carry a secret, or undefined when it may: https, or http to a host of
 * your own network.
 */
export function plainHttpProblem(url: URL): string | undefined {
	if (url.protocol === 'https:') return undefined;
	if (url.protocol !== 'http:') return 'it must start with https://';
	return isOwnNetworkHost(url.hostname)
		? undefined
		: 'http:// is taken only for a service on your own network (a private or loopback address, or a local name); use https://';
}
