import {
	ADAPTIVE_FIRST_PAGE,
	ADAPTIVE_MAX_PAGE,
	GUIDE_PAGE_SIZE,
	PageSizer,
} from '../../../../../nodes/shared/report/pageSize';

/** The limits an adaptive read asks for while every page comes back full. */
function limitsWhileFull(pages: number): number[] {
	const sizer = new PageSizer('adaptive');
	const limits: number[] = [];
	for (let page = 0; page < pages; page++) {
		limits.push(sizer.size);
		sizer.onPage(sizer.size, sizer.size);
	}
	return limits;
}

describe('PageSizer', () => {
	it('keeps a fixed size, only lowering it to what a capping service serves', () => {
		const sizer = new PageSizer(250);
		sizer.onPage(250, 250);
		expect(sizer.size).toBe(250);
		expect(sizer.learning).toBe(false);
		sizer.onPage(250, 80);
		expect(sizer.size).toBe(80);
		expect(sizer.onRefused(250, 400)).toBe(false);
	});

	it('grows an adaptive read by doubling after full pages, up to the bound', () => {
		expect(limitsWhileFull(6)).toEqual([ADAPTIVE_FIRST_PAGE, 2_000, 4_000, ADAPTIVE_MAX_PAGE, ADAPTIVE_MAX_PAGE, ADAPTIVE_MAX_PAGE]);
	});

	it('learns a cap from a short page, tries once above it, and then never grows past it again', () => {
		const sizer = new PageSizer('adaptive');
		expect(sizer.learning).toBe(true);
		sizer.onPage(ADAPTIVE_FIRST_PAGE, 100);
		expect(sizer.learning).toBe(false);
		expect(sizer.size).toBe(100);
		sizer.onPage(100, 100);
		expect(sizer.size).toBe(200);
		sizer.onPage(200, 100);
		expect(sizer.size).toBe(100);
		for (let page = 0; page < 5; page++) sizer.onPage(100, 100);
		expect(sizer.size).toBe(100);
	});

	it('grows back after a short page: one large row does not pin the read at a row per page (finding 2.4)', () => {
		const sizer = new PageSizer('adaptive');
		sizer.onPage(ADAPTIVE_FIRST_PAGE, 40);
		sizer.onPage(40, 1);
		expect(sizer.size).toBe(1);
		const limits: number[] = [];
		for (let page = 0; page < 8; page++) {
			limits.push(sizer.size);
			sizer.onPage(sizer.size, Math.min(sizer.size, 40));
		}
		expect(limits).toEqual([1, 2, 4, 8, 16, 32, 40, 80]);
		expect(sizer.size).toBe(40);
	});

	it('a large row early, before the cap is known, does not hold the size below the cap either', () => {
		const sizer = new PageSizer('adaptive');
		sizer.onPage(ADAPTIVE_FIRST_PAGE, 5);
		sizer.onPage(5, 1);
		for (let page = 0; page < 12; page++) sizer.onPage(sizer.size, Math.min(sizer.size, 130));
		expect(sizer.size).toBe(130);
	});

	it('a fixed size lowered by a short page grows back to it, never above it', () => {
		const sizer = new PageSizer(100);
		sizer.onPage(100, 100);
		sizer.onPage(100, 3);
		for (let page = 0; page < 10; page++) sizer.onPage(sizer.size, sizer.size);
		expect(sizer.size).toBe(100);
	});

	it('falls back to the largest page the service has answered when a larger one is refused', () => {
		const sizer = new PageSizer('adaptive');
		sizer.onPage(ADAPTIVE_FIRST_PAGE, ADAPTIVE_FIRST_PAGE);
		expect(sizer.size).toBe(2_000);
		expect(sizer.onRefused(2_000, 400)).toBe(true);
		expect(sizer.size).toBe(ADAPTIVE_FIRST_PAGE);
		expect(sizer.onRefused(ADAPTIVE_FIRST_PAGE, 400)).toBe(false);
		sizer.onPage(ADAPTIVE_FIRST_PAGE, ADAPTIVE_FIRST_PAGE);
		expect(sizer.size).toBe(ADAPTIVE_FIRST_PAGE);
	});

	it('grows only on pages asked at the current size (pages planned earlier in parallel do not count twice)', () => {
		const sizer = new PageSizer('adaptive');
		sizer.onPage(ADAPTIVE_FIRST_PAGE, ADAPTIVE_FIRST_PAGE);
		sizer.onPage(ADAPTIVE_FIRST_PAGE, ADAPTIVE_FIRST_PAGE);
		expect(sizer.size).toBe(2_000);
	});

	it('falls back to the guide default once when a large limit is refused with a 4xx about the request', () => {
		const sizer = new PageSizer('adaptive');
		expect(sizer.onRefused(ADAPTIVE_FIRST_PAGE, 401)).toBe(false);
		expect(sizer.onRefused(ADAPTIVE_FIRST_PAGE, 429)).toBe(false);
		expect(sizer.onRefused(ADAPTIVE_FIRST_PAGE, 500)).toBe(false);
		expect(sizer.onRefused(ADAPTIVE_FIRST_PAGE, Number.NaN)).toBe(false);
		expect(sizer.onRefused(ADAPTIVE_FIRST_PAGE, 400)).toBe(true);
		expect(sizer.size).toBe(GUIDE_PAGE_SIZE);
		// At the guide's size a refusal is the service's last word.
		expect(sizer.onRefused(GUIDE_PAGE_SIZE, 400)).toBe(false);
		sizer.onPage(GUIDE_PAGE_SIZE, GUIDE_PAGE_SIZE);
		expect(sizer.size).toBe(GUIDE_PAGE_SIZE);
	});

	it('ignores the empty page that ends a read', () => {
		const sizer = new PageSizer('adaptive');
		sizer.onPage(ADAPTIVE_FIRST_PAGE, 0);
		expect(sizer.size).toBe(ADAPTIVE_FIRST_PAGE);
	});

	it('with server errors counted (Get Rows), also falls back on 500, 502 and 504 to a large page, never on 503', () => {
		for (const status of [500, 502, 504]) {
			const sizer = new PageSizer('adaptive', { serverErrors: true });
			expect(sizer.finalStatuses(ADAPTIVE_FIRST_PAGE)).toEqual([500, 502, 504]);
			expect(sizer.onRefused(ADAPTIVE_FIRST_PAGE, status)).toBe(true);
			expect(sizer.size).toBe(GUIDE_PAGE_SIZE);
			// At the guide's size a 500 is retried and then stands.
			expect(sizer.finalStatuses(GUIDE_PAGE_SIZE)).toBeUndefined();
			expect(sizer.onRefused(GUIDE_PAGE_SIZE, status)).toBe(false);
		}
		expect(new PageSizer('adaptive', { serverErrors: true }).onRefused(ADAPTIVE_FIRST_PAGE, 503)).toBe(false);
	});

	it('a fixed page size never falls back and is retried as ever', () => {
		const sizer = new PageSizer(1_000, { serverErrors: true });
		expect(sizer.finalStatuses(1_000)).toBeUndefined();
		expect(sizer.onRefused(1_000, 500)).toBe(false);
	});
});
