'use strict';
// A suite that still builds its own stack (its own n8n user folder, crew service, `n8n start`):
// the checks of a script written before the shared stack, run by the runner unchanged. Its
// report calls go to the runner's results under the suite's name; its folder is t.root.

/**
 * @param {object} o
 * @param {string} o.name, o.title          the suite's name (file name) and title
 * @param {string[]} o.majors
 * @param {() => Function} o.load           the script's suite function ({major, report, root, packed, ...})
 * @param {(t) => object} [o.extra]         more arguments from the run's options
 */
function ownStackSuite({ name, title, majors, load, extra = () => ({}) }) {
	return {
		name,
		title,
		majors,
		needs: { ownStack: true },
		async run(t) {
			await load()({ major: t.major, report: t.report, root: t.root, packed: t.packed, withPackage: !t.opts.withoutPackage, ...extra(t) });
		},
	};
}

module.exports = { ownStackSuite };
