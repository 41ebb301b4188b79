// The tests' kit: the devkit (what tests share with the bench and the tools: ../../devkit) and the
// reference server the tests start in their own process (server.ts). Imported by path rather than
// from here, as they load the payment code and the BIP70 corpus: the fuzz inputs (fuzz.ts).
export * from '../../devkit';
export * from './server';
