import { afterAll } from 'vitest';
import { removeTestDirs } from './temp.js';

// A setup file runs before every test file, so this hook is registered once per file.
afterAll(removeTestDirs);
