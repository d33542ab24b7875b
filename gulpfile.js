const { src, dest } = require('gulp');

// tsc emits only JavaScript; n8n also reads each node's icons and codex file from dist/.
function copyAssets() {
	return src(['nodes/**/*.{svg,png,json}', 'credentials/**/*.{svg,png}'], { base: '.', encoding: false }).pipe(
		dest('dist'),
	);
}

exports['build:assets'] = copyAssets;
