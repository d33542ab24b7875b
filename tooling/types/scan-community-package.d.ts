/** The part of @n8n/scan-community-package's scanner (plain JavaScript) that tooling/scan-package.ts uses. */
declare module '@n8n/scan-community-package/scanner/scanner.mjs' {
	export interface AnalysisResult {
		passed: boolean;
		message?: string;
		details?: string;
	}
	/** The files the scanner lints in a package's source checkout: package.json, nodes/, credentials/. */
	export const SOURCE_FILE_PATTERNS: string[];
	/** Lints the files matching `filePatterns` under `packageDir` with the scanner's rule set. */
	export function analyzePackage(packageDir: string, filePatterns?: string[]): Promise<AnalysisResult>;
}
