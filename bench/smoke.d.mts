/** Whether this bench runs in smoke mode (SHUNONG_BENCH_SMOKE=1, set by `npm run bench:smoke`). */
export declare const SMOKE: boolean;
/** `full` in a measuring run, `smoke` in smoke mode. */
export declare function sized<T>(full: T, smoke: T): T;
