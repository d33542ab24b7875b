/**
 * Record → Import through n8n's execution engine against the sandbox: each input mode and each
 * value option, asserted on what the sandbox stored and on the node's output items.
 */
import { getGlobalState, setGlobalState, type IDataObject } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { runNode, type RecordsCredentialData } from '../../tooling/harness/n8nCoreHarness';
import { control, storedFields } from '../../tooling/sandbox/control';
import { TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

const sandbox = useSandbox({ bankRows: 10 });
const credentials = sandbox.credentials(TOKENS.import);
const originalTimezone = getGlobalState().defaultTimezone;

// The workflow timezone, as GENERIC_TIMEZONE sets it for an n8n instance.
beforeAll(() => setGlobalState({ defaultTimezone: 'Europe/Prague' }));
afterAll(() => setGlobalState({ defaultTimezone: originalTimezone }));

const NFD = (text: string) => text.normalize('NFD');

function importRecords(
	parameters: IDataObject,
	input: IDataObject[] = [{}],
	extra: { continueOnFail?: boolean; credentials?: RecordsCredentialData } = {},
) {
	return runNode({
		nodeType: new Records(),
		parameters: { resource: 'record', operation: 'import', ...parameters },
		credentials: extra.credentials ?? credentials,
		input,
		continueOnFail: extra.continueOnFail,
	});
}

/** The sandbox's records of a type, as its control endpoint lists them. */
async function storedRecords(recordTypeId: string): Promise<Array<Record<string, string>>> {
	const response = await fetch(`${sandbox.baseUrl}/__sandbox/records/${encodeURIComponent(recordTypeId)}`);
	const body = (await response.json()) as { records: Array<{ fields: Record<string, string> }> };
	return body.records.map((record) => record.fields);
}

const importRequests = () => sandbox.state.stats.importLog;

describe('Each Input Item Is One Record', () => {
	it('creates one record per item with exactly the given Czech values, and pairs the output', async () => {
		const input = [
			{ Název: 'Zavolat do ČEZ', Zadal: 'Jana Nováková', Zpracovatel: 'Petr Svoboda' },
			{ Název: 'Objednat papír', Zadal: 'Petr Svoboda', Zpracovatel: 'Žofie Řeháková' },
		];
		const { items, error } = await importRecords({ recordTypeId: 'ukoly' }, input);

		expect(error).toBeUndefined();
		const stored = await storedRecords('ukoly');
		expect(stored).toHaveLength(4);
		expect(stored.slice(2)).toEqual(input);
		expect(importRequests()).toHaveLength(1);
		expect(items).toEqual([
			{
				json: { status: 'created', outcome: 'imported', id: '3', recordTypeId: 'ukoly', batch: 1, record: input[0] },
				pairedItem: { item: 0 },
			},
			{
				json: { status: 'created', outcome: 'imported', id: '4', recordTypeId: 'ukoly', batch: 1, record: input[1] },
				pairedItem: { item: 1 },
			},
		]);
	});

	it('edits the records whose key already exists, and says so per item', async () => {
		const { items, error } = await importRecords({ recordTypeId: 'ukoly' }, [
			{ Název: 'Nový úkol', Zadal: 'Jana Nováková' },
			{ Název: 'Objednat tonery', Zpracovatel: 'Jana Nováková' },
		]);

		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json.status, item.json.id])).toEqual([
			['created', '3'],
			['edited', '2'],
		]);
		expect(storedFields(sandbox, 'ukoly', 'Objednat tonery')).toEqual({
			Název: 'Objednat tonery',
			Zadal: 'Jana Nováková',
			Zpracovatel: 'Jana Nováková',
		});
		expect(await storedRecords('ukoly')).toHaveLength(3);
	});

	it('matches field names typed in NFD or with spaces, and a key value in NFD edits the NFC record', async () => {
		const { items, error } = await importRecords({ recordTypeId: 'ukoly' }, [
			{ [` ${NFD('Název')} `]: NFD('Zkontrolovat fakturu od ČEZ'), [NFD('Zpracovatel')]: NFD('Řehoř Šťastný') },
		]);

		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('edited');
		expect(storedFields(sandbox, 'ukoly', 'Zkontrolovat fakturu od ČEZ')?.Zpracovatel).toBe('Řehoř Šťastný'.normalize('NFC'));
		expect(await storedRecords('ukoly')).toHaveLength(2);
	});

	it('sends only the selected fields, or all but the excluded ones', async () => {
		const input = [{ Název: 'Úkol A', Zadal: 'Jana', id: 17, createdAt: '2026-01-01' }];
		const selected = await importRecords({ recordTypeId: 'ukoly', fieldsToSend: 'selected', fieldsToInclude: 'Název, Zadal' }, input);
		expect(selected.error).toBeUndefined();
		expect(selected.items[0].json.record).toEqual({ Název: 'Úkol A', Zadal: 'Jana' });

		const excluded = await importRecords(
			{ recordTypeId: 'ukoly', fieldsToSend: 'allExcept', fieldsToExclude: 'id,createdAt' },
			[{ Název: 'Úkol B', Zpracovatel: 'Petr', id: 18, createdAt: '2026-01-02' }],
		);
		expect(excluded.error).toBeUndefined();
		expect(storedFields(sandbox, 'ukoly', 'Úkol B')).toEqual({ Název: 'Úkol B', Zpracovatel: 'Petr' });
	});
});

describe('Define Fields Below', () => {
	it('evaluates the expressions per item', async () => {
		const { items, error } = await importRecords(
			{
				recordTypeId: 'ukoly',
				dataMode: 'defineBelow',
				fields: {
					field: [
						{ name: 'Název', value: '={{ "Úkol " + $json.n }}' },
						{ name: 'Zadal', value: 'Administrátor' },
						{ name: NFD('Zpracovatel'), value: '={{ $json.who }}' },
					],
				},
			},
			[
				{ n: 1, who: 'Jana Nováková' },
				{ n: 2, who: 'Petr Svoboda' },
			],
		);

		expect(error).toBeUndefined();
		expect((await storedRecords('ukoly')).slice(2)).toEqual([
			{ Název: 'Úkol 1', Zadal: 'Administrátor', Zpracovatel: 'Jana Nováková' },
			{ Název: 'Úkol 2', Zadal: 'Administrátor', Zpracovatel: 'Petr Svoboda' },
		]);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(importRequests()).toHaveLength(1);
	});

	it('formats numbers, booleans and named date fields from expressions, and leaves look-alike text alone', async () => {
		const { error } = await importRecords(
			{
				recordTypeId: 'faktury-prijate',
				dataMode: 'defineBelow',
				fields: {
					field: [
						{ name: 'Interní číslo', value: '={{ $json.cislo }}' },
						{ name: 'Kolik to stálo', value: '={{ $json.castka }}' },
						{ name: 'Datum splatnosti', value: '={{ $json.splatnost }}' },
						{ name: 'DUZP', value: '={{ $json.duzp }}' },
						{ name: 'Stav', value: '={{ $json.uhrazeno }}' },
						{ name: 'Konstantní symbol', value: '0308' },
						{ name: 'Popis', value: '2026-01-31' },
					],
				},
				options: { dateFields: 'Datum splatnosti, DUZP', booleanFormat: 'AnoNe', decimalPlaces: 2 },
			},
			[{ cislo: 'FP-2026-0100', castka: -1234.5, splatnost: '2026-02-14', duzp: '2026-01-31T23:30:00Z', uhrazeno: true }],
		);

		expect(error).toBeUndefined();
		expect(storedFields(sandbox, 'faktury-prijate', 'FP-2026-0100')).toEqual({
			'Interní číslo': 'FP-2026-0100',
			'Kolik to stálo': '-1234,50',
			'Datum splatnosti': '14.2.2026',
			DUZP: '1.2.2026',
			Stav: 'Ano',
			'Konstantní symbol': '0308',
			Popis: '2026-01-31',
		});
	});
});

describe('JSON', () => {
	it('imports the list each item gives, pairing every record with its item', async () => {
		const { items, error } = await importRecords(
			{ recordTypeId: 'ukoly', dataMode: 'json', jsonRecords: '={{ JSON.stringify($json.ukoly) }}' },
			[
				{ ukoly: [{ Název: 'A1' }, { Název: 'A2' }] },
				{ ukoly: [{ Název: 'B1', Zadal: 'Jana' }] },
			],
		);

		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json.record, item.pairedItem])).toEqual([
			[{ Název: 'A1' }, { item: 0 }],
			[{ Název: 'A2' }, { item: 0 }],
			[{ Název: 'B1', Zadal: 'Jana' }, { item: 1 }],
		]);
		expect((await storedRecords('ukoly')).map((record) => record.Název)).toEqual([
			'Zkontrolovat fakturu od ČEZ',
			'Objednat tonery',
			'A1',
			'A2',
			'B1',
		]);
	});

	it('takes an object returned by an expression, and one record instead of a list', async () => {
		const { items, error } = await importRecords(
			{ recordTypeId: 'ukoly', dataMode: 'json', jsonRecords: '={{ $json.task }}' },
			[{ task: { Název: 'Z objektu', Zpracovatel: 'Jana' } }],
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(storedFields(sandbox, 'ukoly', 'Z objektu')).toEqual({ Název: 'Z objektu', Zpracovatel: 'Jana' });
	});

	it('evaluated once, imports a fixed list once however many items come in', async () => {
		const jsonRecords = JSON.stringify({ data: [{ Název: 'Jednou' }, { Název: 'Podruhé' }] });
		const { items, error } = await importRecords(
			{ recordTypeId: 'ukoly', dataMode: 'json', jsonEvaluation: 'once', jsonRecords },
			[{}, {}, {}],
		);

		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
		expect(await storedRecords('ukoly')).toHaveLength(4);
		expect(importRequests()).toHaveLength(1);
	});

	it('sends no request when no items come in', async () => {
		const { items, error } = await importRecords({ recordTypeId: 'ukoly' }, []);

		expect(error).toBeUndefined();
		expect(items).toEqual([]);
		expect(importRequests()).toHaveLength(0);
	});

	it('sends no request when the JSON holds no records', async () => {
		const { items, error } = await importRecords({ recordTypeId: 'ukoly', dataMode: 'json', jsonRecords: '[]' }, [{}, {}]);

		expect(error).toBeUndefined();
		expect(items).toEqual([]);
		expect(importRequests()).toHaveLength(0);
	});
});

describe('a received invoice (cost) with all 22 fields', () => {
	const invoice = {
		'Interní číslo': 'FP-2026-0200',
		'Číslo dokladu': '2026020017',
		Partner: NFD('Kancelářské potřeby Novák s.r.o.'),
		Pracovník: 'Jana Nováková',
		Vystavil: 'Petr Svoboda',
		Stav: 'Ke schválení',
		Popis: 'Papír, tonery, 31.1.2026 dodáno',
		'Způsob platby': 'Převodem',
		'Kategorie nákladu': 'Kancelář',
		Typ: 'Faktura',
		'Datum splatnosti': '2026-02-28',
		DUZP: '2026-01-31',
		'Datum přijetí': '2026-02-02T08:15:00+01:00',
		'Datum vystavení': '31.1.2026',
		'Datum uhrazení': null,
		'Variabilní symbol': '2026020017',
		'Konstantní symbol': '0308',
		'Specifický symbol': '',
		'Číslo objednávky': 'OBJ-2026-1.5',
		Projekt: 'Provoz',
		'Kolik to stálo': 1234567.5,
		'Sazba DPH': 21,
	};
	const dateFields = 'Datum splatnosti, DUZP, Datum přijetí, Datum vystavení, Datum uhrazení';

	it('lands with local dates and amounts, and every other text exactly as given', async () => {
		const { items, error } = await importRecords(
			{ recordTypeId: 'faktury-prijate', options: { dateFields, thousandsSeparator: 'space', decimalPlaces: 2 } },
			[invoice],
		);

		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('created');
		expect(storedFields(sandbox, 'faktury-prijate', 'FP-2026-0200')).toEqual({
			...invoice,
			Partner: 'Kancelářské potřeby Novák s.r.o.'.normalize('NFC'),
			'Datum splatnosti': '28.2.2026',
			DUZP: '31.1.2026',
			'Datum přijetí': '2.2.2026',
			'Datum vystavení': '31.1.2026',
			'Datum uhrazení': '',
			'Kolik to stálo': '1 234 567,50',
			'Sazba DPH': '21,00',
		});
	});

	it('leaves out null fields when asked, so an edit keeps their stored values', async () => {
		const seeded = storedFields(sandbox, 'faktury-prijate', 'FP-2026-0001');
		expect(seeded?.['Datum uhrazení']).toBe('20.1.2026');

		const { items, error } = await importRecords(
			{ recordTypeId: 'faktury-prijate', options: { emptyValues: 'omit' } },
			[{ 'Interní číslo': 'FP-2026-0001', Stav: 'Reklamace', 'Datum uhrazení': null, Popis: null }],
		);

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ status: 'edited', record: { 'Interní číslo': 'FP-2026-0001', Stav: 'Reklamace' } });
		expect(storedFields(sandbox, 'faktury-prijate', 'FP-2026-0001')).toEqual({ ...seeded, Stav: 'Reklamace' });
	});

	it('clears null fields by default', async () => {
		const { error } = await importRecords({ recordTypeId: 'faktury-prijate' }, [
			{ 'Interní číslo': 'FP-2026-0001', 'Datum uhrazení': null },
		]);

		expect(error).toBeUndefined();
		expect(storedFields(sandbox, 'faktury-prijate', 'FP-2026-0001')?.['Datum uhrazení']).toBe('');
	});
});

describe('dates and the timezone', () => {
	const instantNearMidnight = { 'Interní číslo': 'FP-TZ', DUZP: '2026-01-31T23:30:00Z', 'Datum přijetí': '2026-01-31' };

	it("gives instants the calendar date of the workflow's timezone", async () => {
		const { error } = await importRecords({ recordTypeId: 'faktury-prijate', options: { dateFields: 'DUZP, Datum přijetí' } }, [
			instantNearMidnight,
		]);

		expect(error).toBeUndefined();
		expect(storedFields(sandbox, 'faktury-prijate', 'FP-TZ')).toMatchObject({ DUZP: '1.2.2026', 'Datum přijetí': '31.1.2026' });
	});

	it('uses the Timezone option instead when set, and keeps date-only values on their day', async () => {
		const { error } = await importRecords(
			{
				recordTypeId: 'faktury-prijate',
				options: { dateFields: 'DUZP, Datum přijetí', timezone: 'America/New_York', dateFormat: 'd.M.yyyy H:mm' },
			},
			[instantNearMidnight],
		);

		expect(error).toBeUndefined();
		expect(storedFields(sandbox, 'faktury-prijate', 'FP-TZ')).toMatchObject({ DUZP: '31.1.2026 18:30', 'Datum přijetí': '31.1.2026 0:00' });
	});

	it('converts ISO strings in any field only with "Convert ISO Date Strings"', async () => {
		const input = [{ 'Interní číslo': 'FP-ISO', Popis: '2026-03-05', 'Číslo objednávky': '2026-03-05T10:00:00+01:00' }];
		await importRecords({ recordTypeId: 'faktury-prijate' }, input);
		expect(storedFields(sandbox, 'faktury-prijate', 'FP-ISO')).toMatchObject({ Popis: '2026-03-05' });

		await importRecords({ recordTypeId: 'faktury-prijate', options: { convertIsoDateStrings: true, dateFormat: 'dd.MM.yyyy' } }, input);
		expect(storedFields(sandbox, 'faktury-prijate', 'FP-ISO')).toMatchObject({ Popis: '05.03.2026', 'Číslo objednávky': '05.03.2026' });
	});
});

describe('record types and responses', () => {
	it('imports into a custom record type, also given as a pasted import address', async () => {
		await control(sandbox, '/record-types', { id: 'zakázky-2026', fields: ['Číslo zakázky', 'Zákazník'], keyField: 'Číslo zakázky' });

		const { items, error } = await importRecords(
			{ recordTypeId: 'https://records.example.com/api/3p/import/zak%C3%A1zky-2026' },
			[{ 'Číslo zakázky': 'Z-1', Zákazník: 'Šťastný a syn' }],
		);

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ status: 'created', recordTypeId: 'zakázky-2026' });
		expect(await storedRecords('zakázky-2026')).toEqual([{ 'Číslo zakázky': 'Z-1', Zákazník: 'Šťastný a syn' }]);
	});

	it('sends each item to the record type its expression names, one request per type', async () => {
		const { items, error } = await importRecords({ recordTypeId: '={{ $json.typ }}', fieldsToSend: 'allExcept', fieldsToExclude: 'typ' }, [
			{ typ: 'ukoly', Název: 'Úkol 1' },
			{ typ: 'faktury-prijate', 'Interní číslo': 'FP-X1' },
			{ typ: 'ukoly', Název: 'Úkol 2' },
		]);

		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json.recordTypeId, item.json.batch, item.pairedItem])).toEqual([
			['ukoly', 1, { item: 0 }],
			['faktury-prijate', 2, { item: 1 }],
			['ukoly', 1, { item: 2 }],
		]);
		expect(importRequests().map((entry) => [entry.recordTypeId, entry.records])).toEqual([
			['ukoly', 2],
			['faktury-prijate', 1],
		]);
	});

	it('adds the whole response to the items when asked', async () => {
		const { items, error } = await importRecords({ recordTypeId: 'ukoly', options: { includeResponse: true } }, [
			{ Název: 'R1' },
			{ Název: 'Objednat tonery' },
		]);

		expect(error).toBeUndefined();
		expect(items[1].json.response).toEqual({
			status: 'ok',
			created: 1,
			edited: 1,
			results: [
				{ index: 0, status: 'created', id: '3' },
				{ index: 1, status: 'edited', id: '2' },
			],
		});
	});

	it('sends JSON numbers when the number format says so', async () => {
		const { error } = await importRecords(
			{ recordTypeId: 'faktury-prijate', options: { numberFormat: 'number', numberFields: 'Sazba DPH' } },
			[{ 'Interní číslo': 'FP-NUM', 'Kolik to stálo': 99.9, 'Sazba DPH': '21' }],
		);

		expect(error).toBeUndefined();
		expect(sandbox.state.recordTypes.get('faktury-prijate')?.findByKey('FP-NUM')?.fields).toMatchObject({
			'Kolik to stálo': 99.9,
			'Sazba DPH': 21,
		});
	});
});
