/* eslint-disable @n8n/community-nodes/no-restricted-globals -- tooling: runs in Node.js, not inside
	n8n (`process`) */
/**
 * The package's `prepublishOnly` guard, in the manner of node-cli's `n8n-node prerelease`: refuses a
 * plain `npm publish` so that every published version comes from the release workflow
 * (.github/workflows/publish.yml), which sets RELEASE_MODE and publishes with a provenance statement,
 * as n8n's verification of community packages requires. (publishConfig.provenance in package.json
 * refuses a publish without provenance even where npm runs no scripts: this repository's .npmrc
 * turns them off.) Releasing: CONTRIBUTING.md, "Releasing".
 */
if (!process.env.RELEASE_MODE) {
	process.stderr.write(
		'npm publish is refused here: this package is published only by its release workflow, from a version tag, with an npm provenance statement (CONTRIBUTING.md, "Releasing"). Push a tag v<version> instead.\n',
	);
	process.exit(1);
}
