// @ts-check
// Tests are dev tooling: linted with tooling/eslint.config.mjs's rules (Node's modules, `process`
// and the console allowed), not the package's. Read with ESLint's config lookup from the linted
// file's folder, which `npm run lint` turns on.
export { default } from '../tooling/eslint.config.mjs';
