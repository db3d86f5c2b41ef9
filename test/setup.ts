// Property tests run with a fixed seed so that CI is reproducible: the same thousands of
// random cases every run. Set FC_SEED to explore other cases locally.
import fc from 'fast-check';

fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261122) });
