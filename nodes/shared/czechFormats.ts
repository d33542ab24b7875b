/**
 * Czech number and date text, read the same way by Import, report conversion and Invoice (pure, no
 * n8n): dates `d.m.yyyy` (also `dd.mm.yyyy` and `d. m. yyyy`) with an optional time `H:mm[:ss]`,
 * checked against the calendar; numbers with a decimal comma, space thousands separators and a
 * hyphen or typographic minus (U+2212). The guide writes values this way (§2.2).
 */

/** Thousands separators: space, no-break space, narrow no-break space. */
const GROUP = '[ \\u00a0\\u202f]';
/** A plus, a hyphen or the typographic minus sign. */
const SIGN = '([+\\-\\u2212])?';
const NUMBER_BODY = `(?:\\d{1,3}(?:${GROUP}\\d{3})+|\\d+)`;
const WHOLE_OR_DECIMAL = new RegExp(`^${SIGN}(${NUMBER_BODY})(?:,(\\d+))?$`);
const DECIMAL_ONLY = new RegExp(`^${SIGN}(${NUMBER_BODY}),(\\d+)$`);
const GROUP_GLOBAL = new RegExp(GROUP, 'g');
/** A double holds 15 significant decimal digits exactly; longer numbers would be changed. */
const MAX_EXACT_DIGITS = 15;

export interface CzechNumberRules {
	/** Whole numbers (no decimal comma) are not accepted. */
	requireDecimalComma?: boolean;
	/** Only numbers a double holds exactly (at most 15 significant digits); longer ones are undefined. */
	exactOnly?: boolean;
	/** A leading plus sign is accepted. */
	allowPlus?: boolean;
}

/**
 * A Czech-formatted number (`1 234,5`, `−0,75`, `12`) as a number; undefined when the text is not
 * one (or, with `exactOnly`, when a JSON number could not hold it exactly).
 */
export function parseCzechNumber(text: string, rules: CzechNumberRules = {}): number | undefined {
	const match = (rules.requireDecimalComma ? DECIMAL_ONLY : WHOLE_OR_DECIMAL).exec(text.trim());
	if (!match) return undefined;
	const [, sign, whole, fraction] = match;
	if (sign === '+' && !rules.allowPlus) return undefined;
	const integer = whole.replace(GROUP_GLOBAL, '');
	if (rules.exactOnly) {
		const significant = `${integer}${fraction ?? ''}`.replace(/^0+/, '').replace(/0+$/, '');
		if (significant.length > MAX_EXACT_DIGITS) return undefined;
	}
	const negative = sign !== undefined && sign !== '+';
	const value = Number(`${negative ? '-' : ''}${integer}${fraction !== undefined ? `.${fraction}` : ''}`);
	return Number.isFinite(value) ? (Object.is(value, -0) ? 0 : value) : undefined;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
	const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
	return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
}

/** Whether the day exists (31.2.2026 does not) and the time is a time of day. */
export function isCalendarDate(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): boolean {
	return (
		month >= 1 &&
		month <= 12 &&
		day >= 1 &&
		day <= daysInMonth(year, month) &&
		hour <= 23 &&
		minute <= 59 &&
		second <= 59
	);
}

export interface DateParts {
	year: number;
	month: number;
	day: number;
	/** Undefined when the text has no time. */
	hour?: number;
	minute?: number;
	second?: number;
}

const CZECH_DATE = /^(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * The parts of a Czech date (with an optional time unless `withTime` is false); undefined when the
 * text is not one or names a day or time that does not exist.
 */
export function czechDateParts(text: string, { withTime = true } = {}): DateParts | undefined {
	const match = CZECH_DATE.exec(text.trim());
	if (!match || (!withTime && match[4] !== undefined)) return undefined;
	const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const time = match[4] === undefined ? undefined : [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)];
	if (!isCalendarDate(year, month, day, ...(time ?? []))) return undefined;
	if (!time) return { year, month, day };
	return { year, month, day, hour: time[0], minute: time[1], second: time[2] };
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** `yyyy-mm-dd`, or `yyyy-mm-ddTHH:mm:ss` when the parts have a time (no zone: the text has none). */
export function isoOfParts(parts: DateParts): string {
	const date = `${parts.year}-${pad2(parts.month)}-${pad2(parts.day)}`;
	if (parts.hour === undefined) return date;
	return `${date}T${pad2(parts.hour)}:${pad2(parts.minute ?? 0)}:${pad2(parts.second ?? 0)}`;
}

/** A Czech date (and time) as ISO 8601 text; undefined when the text is not a valid one. */
export function parseCzechDate(text: string): string | undefined {
	const parts = czechDateParts(text);
	return parts && isoOfParts(parts);
}

/**
 * A Luxon DateTime, recognised by its brand rather than `instanceof`: the DateTime class of n8n's
 * expression engine may be another copy of Luxon than the one this package sees.
 */
export interface LuxonLike {
	isLuxonDateTime: true;
	isValid: boolean;
	toMillis(): number;
	toISODate(): string | null;
}

export function isLuxonDateTime(value: unknown): value is LuxonLike {
	return (
		typeof value === 'object' &&
		value !== null &&
		(value as { isLuxonDateTime?: unknown }).isLuxonDateTime === true &&
		typeof (value as { toMillis?: unknown }).toMillis === 'function'
	);
}
