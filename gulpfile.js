const { src, dest } = require('gulp');

// tsc emits only JavaScript; n8n also reads the icons (one set for every node and credential, in
// icons/, named relative to each node's file) and each node's codex file from dist/.
function copyAssets() {
	return src(['icons/*.svg', 'nodes/**/*.{svg,png,json}', 'credentials/**/*.{svg,png}'], { base: '.', encoding: false }).pipe(
		dest('dist'),
	);
}

exports['build:assets'] = copyAssets;
