/** VINs and device IDs read better in a fixed-width face. */
export const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';
