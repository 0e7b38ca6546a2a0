/** Milliseconds on the machine's monotonic clock (`process.hrtime`): comparable between processes. */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;
