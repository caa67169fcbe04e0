// Benchmarks live here; each prints its figure beside a peer's measured in the same run.
export {};
