import { TokenizerThread } from '../../src/server/recording/tokenizerThread';

// Each test file has modules of its own, so a tokenizer thread of its own: ended with the file.
// Left alone, a Jest worker that ran many files held dozens of them when it exited, and was
// force-exited ("A worker process has failed to exit gracefully").
afterAll(() => TokenizerThread.closeShared());
