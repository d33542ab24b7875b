import type { Machine } from './machine';
import type { Measurement } from './measure';
import type { SandboxProcess } from './sandbox';

export interface BenchContext {
	/** Smaller sizes and fewer runs, for a quick check that everything works. */
	quick: boolean;
	sandbox: SandboxProcess;
	/** When set, V8 CPU profiles of every measuring process are written here. */
	profileDir?: string;
	log(line: string): void;
	/**
	 * Measurements one section made that another can reuse instead of repeating them (the growth
	 * section's largest size is the main sections' configuration), keyed by what was measured.
	 */
	shared: Map<string, { raw: Series; node: Series }>;
}

/** A claim the issue makes about a measurement, checked against the medians. */
export interface TargetCheck {
	target: string;
	measured: string;
	met: boolean;
}

export interface Chart {
	/** File name under bench/results/. */
	file: string;
	svg: string;
	alt: string;
}

export interface Rendered {
	markdown: string;
	charts: Chart[];
	targets: TargetCheck[];
}

/** One part of the benchmark: measures (run), and turns its stored data into report text (render). */
export interface Section<Data> {
	id: string;
	title: string;
	run(context: BenchContext): Promise<Data>;
	render(data: Data, machine: Machine): Rendered;
}

/** Every run of one configuration, in the order measured. */
export interface Series {
	label: string;
	runs: Measurement[];
}
