/** The part of autocannon's API the trigger benchmark uses (the package ships no types). */
declare module 'autocannon' {
	interface Options {
		url: string;
		method?: string;
		headers?: Record<string, string>;
		body?: string;
		connections?: number;
		/** Requests per second across all connections; unlimited when absent. */
		overallRate?: number;
		duration?: number;
		pipelining?: number;
		timeout?: number;
	}

	interface Histogram {
		average: number;
		mean: number;
		stddev: number;
		min: number;
		max: number;
		p50: number;
		p90: number;
		p97_5: number;
		p99: number;
		total: number;
	}

	interface Result {
		requests: Histogram & { sent: number };
		latency: Histogram;
		throughput: Histogram;
		errors: number;
		timeouts: number;
		non2xx: number;
		'2xx': number;
		duration: number;
	}

	/** A running load test: resolves with the result, and reports every response as it comes. */
	interface Tracker extends PromiseLike<Result> {
		on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
	}

	function autocannon(options: Options): Tracker;

	export = autocannon;
}
