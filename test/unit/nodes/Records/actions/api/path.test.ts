import { buildCustomApiPath } from '../../../../../../nodes/Records/actions/api/path';

describe('buildCustomApiPath', () => {
	it('keeps an ordinary path as it is', () => {
		expect(buildCustomApiPath('/api/v1/records/ukoly/12')).toBe('/api/v1/records/ukoly/12');
	});

	it('trims surrounding spaces', () => {
		expect(buildCustomApiPath('  /api/v1/clients \n')).toBe('/api/v1/clients');
	});

	it('percent-encodes Unicode and spaces, but not what is already encoded', () => {
		expect(buildCustomApiPath('/api/v1/records/faktury přijaté')).toBe(
			'/api/v1/records/faktury%20p%C5%99ijat%C3%A9',
		);
		expect(buildCustomApiPath('/api/v1/records/faktury%20p%C5%99ijat%C3%A9')).toBe(
			'/api/v1/records/faktury%20p%C5%99ijat%C3%A9',
		);
	});

	it('encodes a lone percent sign and a hash, which would otherwise change the URL', () => {
		expect(buildCustomApiPath('/api/v1/records/sleva 50%/#1')).toBe('/api/v1/records/sleva%2050%25/%231');
	});

	it('encodes characters outside the Basic Multilingual Plane as one code point', () => {
		expect(buildCustomApiPath('/x/😀')).toBe('/x/%F0%9F%98%80');
	});

	it('appends query parameters, repeated names in order, with their values encoded', () => {
		expect(
			buildCustomApiPath('/api/v1/clients', [
				{ name: 'status', value: 'active' },
				{ name: 'tag', value: 'a&b' },
				{ name: 'tag', value: 'Kč = 1' },
			]),
		).toBe('/api/v1/clients?status=active&tag=a%26b&tag=K%C4%8D%20%3D%201');
	});

	it('adds query parameters to a query already in the path', () => {
		expect(buildCustomApiPath('/api/v1/clients?status=active', [{ name: 'limit', value: '5' }])).toBe(
			'/api/v1/clients?status=active&limit=5',
		);
		expect(buildCustomApiPath('/api/v1/clients?', [{ name: 'limit', value: '5' }])).toBe(
			'/api/v1/clients?limit=5',
		);
	});

	it.each([
		['https://attacker.example/collect', 'is an absolute URL'],
		['HTTP://attacker.example', 'is an absolute URL'],
		['javascript:alert(1)', 'is an absolute URL'],
		['//attacker.example/collect', 'starts with "//", which names another host'],
		['/\\attacker.example/collect', 'starts with "/\\", which names another host'],
		['api/v1/clients', 'must start with "/"'],
		['.attacker.example/x', 'must start with "/"'],
		['@attacker.example/x', 'must start with "/"'],
		['/api/v1/clients\r\nX-Injected: 1', 'contains a control character'],
	])('refuses %j', (path, message) => {
		expect(() => buildCustomApiPath(path)).toThrow(message);
	});

	it.each([[''], ['   '], [undefined], [42]])('asks for a path when given %j', (path) => {
		expect(() => buildCustomApiPath(path)).toThrow(
			"The Path is empty; enter the path after the credential's Base URL, e.g. /api/v1/records/ukoly",
		);
	});

	it('refuses a query parameter without a name, saying which', () => {
		expect(() =>
			buildCustomApiPath('/api/v1/clients', [
				{ name: 'status', value: 'active' },
				{ name: ' ', value: 'x' },
			]),
		).toThrow('Query parameter 2 has no name; enter one or remove the parameter');
	});
});
