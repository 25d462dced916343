// The anchors GitHub gives a markdown file's headings: what a link's #fragment must name,
// for the docs' own links (links.test.ts) and the links n8n shows (productLinks.test.ts).

/** GitHub's slug of a heading's text (github-slugger): its rendered text, lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
	const text = heading
		.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/`([^`]*)`/g, '$1')
		.replace(/<[^>]+>/g, '')
		.replace(/(\*\*|__|\*|_)(\S(?:.*?\S)?)\1/g, '$2');
	return text
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
		.replace(/ /g, '-');
}

/** The anchors GitHub gives a file's headings (a repeated slug gets -1, -2, ...). */
export function anchors(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const out = new Set<string>();
	let fence: string | null = null;
	for (const line of markdown.split('\n')) {
		const opener = /^\s*(```+|~~~+)/.exec(line);
		if (fence) {
			if (opener && opener[1][0] === fence[0] && opener[1].length >= fence.length) fence = null;
			continue;
		}
		if (opener) {
			fence = opener[1];
			continue;
		}
		const h = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!h) continue;
		const base = slug(h[1]);
		const n = seen.get(base) ?? 0;
		seen.set(base, n + 1);
		out.add(n === 0 ? base : `${base}-${n}`);
	}
	return out;
}
