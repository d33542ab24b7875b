/**
 * The Authorization header is read before authentication, from anyone who knows the URL: its cost
 * must grow with its length, not faster.
 */
import { checkCaller } from '../../../../../nodes/RecordsTrigger/helpers/callerAuth';
import { bestTime, timeBoundMs } from '../linearTime';

const bearer = { type: 'bearerToken', credential: { token: 'abc.DEF-123_~+/=' } } as const;
const basic = { type: 'basicAuth', credential: { user: 'records', password: 'tajné heslo' } } as const;

describe('reading the Authorization header', () => {
	it('a 64 KB Authorization header of spaces between two words is refused in time linear in its length', () => {
		for (const header of [`Bearer a${' '.repeat(64 * 1024)}b`, `Basic a${'\t '.repeat(32 * 1024)}b`, `${' '.repeat(64 * 1024)}x`]) {
			const bound = timeBoundMs(header.length);
			const { ms, result } = bestTime(() => checkCaller(header, bearer), bound);
			expect(result).toEqual({ ok: false, reason: 'invalid' });
			expect(ms).toBeLessThanOrEqual(bound);
		}
	});

	it('takes the scheme case-insensitively and the credentials without the spaces around them', () => {
		expect(checkCaller('  bEaReR   abc.DEF-123_~+/=  ', bearer)).toEqual({ ok: true });
		expect(checkCaller(`Basic\t${Buffer.from('records:tajné heslo').toString('base64')} `, basic)).toEqual({ ok: true });
		expect(checkCaller('Bearer', bearer)).toEqual({ ok: false, reason: 'invalid' });
		expect(checkCaller('Bearer abc.DEF-123_~+/= extra', bearer)).toEqual({ ok: false, reason: 'invalid' });
		expect(checkCaller('   ', bearer)).toEqual({ ok: false, reason: 'missing' });
	});
});
