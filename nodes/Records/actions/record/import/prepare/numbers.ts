/**
 * Number fields of an import: numbers written in the chosen format (decimal comma or point,
 * thousands separator, decimal places) without losing digits, and number text read back (pure).
 */
import {
	RecordValueError,
	truncate,
	type PreparedValue,
	type ThousandsSeparator,
	type ValuePreparationOptions,
} from './preparation';
import { parseCzechNumber } from '../../../../../shared/czechFormats';

interface DecimalParts {
	negative: boolean;
	integer: string;
	fraction: string;
}

/**
 * The decimal digits of a finite number as JavaScript's shortest round-trip representation gives
 * them (so 0.1 stays 0.1), without exponent notation.
 */
function decimalParts(value: number): DecimalParts {
	const negative = value < 0;
	const text = String(Math.abs(value));
	if (!text.includes('e')) {
		const point = text.indexOf('.');
		return point < 0
			? { negative, integer: text, fraction: '' }
			: { negative, integer: text.slice(0, point), fraction: text.slice(point + 1) };
	}
	const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(text);
	if (!match) throw new RecordValueError(`cannot be written as a decimal number (${text})`, 'Send the number as text.');
	const [, whole, fractionDigits = '', exponentText] = match;
	const exponent = exponentText === undefined ? 0 : Number(exponentText);
	const digits = whole + fractionDigits;
	let point = whole.length + exponent;
	let padded = digits;
	if (point <= 0) {
		padded = '0'.repeat(1 - point) + digits;
		point = 1;
	} else if (point > digits.length) {
		padded = digits + '0'.repeat(point - digits.length);
	}
	const integer = padded.slice(0, point).replace(/^0+(?=\d)/, '');
	const fraction = padded.slice(point).replace(/0+$/, '');
	return { negative, integer, fraction };
}

/** Rounds half away from zero on the decimal digits, so 1.005 becomes 1.01 as a person expects. */
function roundParts(parts: DecimalParts, places: number): DecimalParts {
	if (parts.fraction.length <= places) {
		return { ...parts, fraction: parts.fraction.padEnd(places, '0') };
	}
	const kept = parts.integer + parts.fraction.slice(0, places);
	const roundUp = parts.fraction.charCodeAt(places) >= '5'.charCodeAt(0);
	let digits = kept;
	if (roundUp) {
		const chars = kept.split('');
		let i = chars.length - 1;
		while (i >= 0) {
			if (chars[i] === '9') {
				chars[i] = '0';
				i--;
			} else {
				chars[i] = String(Number(chars[i]) + 1);
				break;
			}
		}
		digits = (i < 0 ? '1' : '') + chars.join('');
	}
	const integerLength = digits.length - places;
	return {
		negative: parts.negative,
		integer: digits.slice(0, integerLength).replace(/^0+(?=\d)/, '') || '0',
		fraction: digits.slice(integerLength),
	};
}

const SEPARATORS: Record<ThousandsSeparator, string> = { none: '', space: ' ', nbsp: '\u00a0' };

function joinParts(parts: DecimalParts, decimalSeparator: string, thousands: ThousandsSeparator): string {
	const grouping = SEPARATORS[thousands];
	const integer = grouping === '' ? parts.integer : parts.integer.replace(/\B(?=(\d{3})+(?!\d))/g, grouping);
	const isZero = /^0*$/.test(parts.integer + parts.fraction);
	const sign = parts.negative && !isZero ? '-' : '';
	return `${sign}${integer}${parts.fraction === '' ? '' : decimalSeparator + parts.fraction}`;
}

/** Largest integer a JSON number carries exactly; beyond it, digits were already lost. */
const MAX_EXACT = Number.MAX_SAFE_INTEGER;

/** Throws what formatNumber throws for the value, without writing it. */
export function checkNumber(value: number): void {
	if (!Number.isFinite(value)) {
		throw new RecordValueError(`is ${String(value)}, which is not a number the service can store`, 'Replace it with a real number or leave the field empty.');
	}
	if (Math.abs(value) > MAX_EXACT) {
		throw new RecordValueError(
			`is the number ${String(value)}, which is too large to be exact (digits may already have been lost)`,
			'Send long numbers such as account or document numbers as text, e.g. "12345678901234567890".',
		);
	}
}

/** Formats a finite number in the chosen local format. */
export function formatNumber(value: number, options: ValuePreparationOptions): PreparedValue {
	checkNumber(value);
	let parts = decimalParts(value);
	if (options.decimalPlaces !== undefined) parts = roundParts(parts, options.decimalPlaces);
	if (options.numberFormat === 'number') return Number(joinParts(parts, '.', 'none'));
	return joinParts(parts, options.numberFormat === 'decimalComma' ? ',' : '.', options.thousandsSeparator);
}

/** Throws what formatBigInt throws for the value, without writing it. */
export function checkBigInt(value: bigint, options: ValuePreparationOptions): void {
	if (options.numberFormat !== 'number') return;
	if ((value < BigInt(0) ? -value : value).toString().length > 15) {
		throw new RecordValueError(
			`is the integer ${value.toString()}, which a JSON number cannot carry exactly`,
			'Choose a text "Number Format" (decimal comma or point).',
		);
	}
}

export function formatBigInt(value: bigint, options: ValuePreparationOptions): PreparedValue {
	checkBigInt(value, options);
	const negative = value < BigInt(0);
	const integer = (negative ? -value : value).toString();
	let parts: DecimalParts = { negative, integer, fraction: '' };
	if (options.decimalPlaces !== undefined) parts = roundParts(parts, options.decimalPlaces);
	if (options.numberFormat === 'number') return Number(joinParts(parts, '.', 'none'));
	return joinParts(parts, options.numberFormat === 'decimalComma' ? ',' : '.', options.thousandsSeparator);
}

const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/** Reads the text of a named number field: plain `1234.5`, or local `1 234,5` / `1234,5` / `−1234,5`. */
export function parseNumberText(text: string): number {
	const trimmed = text.trim();
	if (PLAIN_NUMBER.test(trimmed)) return Number(trimmed);
	const local = parseCzechNumber(trimmed, { allowPlus: true });
	if (local !== undefined) {
		if (/^[+\-\u2212]?\d{1,3},\d{3}$/.test(trimmed)) {
			throw new RecordValueError(
				`"${trimmed}" is ambiguous: the comma could be a decimal or a thousands separator`,
				'Write the number with a decimal point and no thousands separator (1234.5 or 1.234), or remove the field from "Number Fields".',
			);
		}
		return local;
	}
	throw new RecordValueError(
		`must be a number, but "${truncate(text)}" is not one`,
		'Send a number, or text such as 1234.5 or 1 234,5, or remove the field from "Number Fields".',
	);
}
