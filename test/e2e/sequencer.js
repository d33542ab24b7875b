/**
 * The order of the end-to-end files: the longest first, so that two running side by side end at
 * about the same time. Most of their time is waiting for polls and n8n's starts, not CPU. Jest
 * would otherwise start the largest files first, and the longest file is one of the smallest.
 * Files not named here follow, largest first.
 */
const Sequencer = require('@jest/test-sequencer').default;

/** Longest first, as measured in a run of the whole suite on two cores. */
const LONGEST = ['pollTiming', 'queue', 'queueInstaller', 'triggers', 'credential', 'reportTriggerEdits', 'installer', 'examples', 'editor', 'panels'];

const rank = (test) => {
	const index = LONGEST.findIndex((name) => test.path.endsWith(`/${name}.e2e.ts`));
	return index === -1 ? LONGEST.length : index;
};

class LongestFirst extends Sequencer {
	sort(tests) {
		return [...super.sort(tests)].sort((a, b) => rank(a) - rank(b));
	}
}

module.exports = LongestFirst;
