import { HttpError, isObject } from './http';
import type { FieldValue } from './seeds';
import type { RecordTypeState } from './state';

/** Record field checks shared by the import, the record CRUD and the control endpoints. */

/** Describes a record-field mismatch helpfully: the name may differ only in Unicode form or spaces. */
function unknownFieldError(type: RecordTypeState, field: string, index?: number): HttpError {
	const normalized = field.normalize('NFC').trim();
	const near = type.fields.find((known) => known === normalized || known.toLowerCase() === normalized.toLowerCase());
	const hint =
		near === undefined
			? ''
			: near === normalized && field !== normalized
				? ` It differs from the field "${near}" only in Unicode normalization or surrounding spaces; send "${near}" exactly (NFC).`
				: ` Did you mean "${near}"?`;
	const where = index === undefined ? '' : `Record ${index}: `;
	return new HttpError(
		400,
		'unknown_field',
		`${where}unknown field "${field}" for record type "${type.id}".${hint} Known fields: ${type.fields.join(', ')}`,
		{ ...(index === undefined ? {} : { index }), field, knownFields: type.fields },
	);
}

/** Checks one record's fields: known names, string or number values. */
export function validateFields(type: RecordTypeState, item: unknown, index?: number): Record<string, FieldValue> {
	const where = index === undefined ? 'The record' : `Record ${index}`;
	if (!isObject(item)) {
		throw new HttpError(
			400,
			'invalid_record',
			`${where} must be an object of field names to values (got ${item === null ? 'null' : Array.isArray(item) ? 'an array' : typeof item})`,
			index === undefined ? {} : { index },
		);
	}
	for (const [field, value] of Object.entries(item)) {
		if (!type.fieldSet.has(field)) throw unknownFieldError(type, field, index);
		if (!(typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))) {
			throw new HttpError(
				400,
				'invalid_value',
				`${where}: field "${field}" must be a string or a number (got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value})`,
				{ ...(index === undefined ? {} : { index }), field },
			);
		}
	}
	return item as Record<string, FieldValue>;
}

/** Identity of an imported record for duplicate detection: its key, or its JSON when it has none. */
export function identityOf(type: RecordTypeState | undefined, item: unknown): string {
	if (type && isObject(item)) {
		const key = type.keyOf(item as Record<string, FieldValue>);
		if (key !== undefined) return key;
	}
	return JSON.stringify(item);
}
