import { describe, expect, it } from 'vitest';
import { isRemote, isRemoteFolder, locate, safe, withoutCredentials } from '../../../src/io/remote/url.js';

describe('remote names', () => {
  it('tells URLs from paths, and an S3 or hub prefix from an object', () => {
    expect(['s3://b/k', 'http://h/x', 'https://h/x', 'hf://datasets/o/n/f'].every(isRemote)).toBe(true);
    expect(['s3/b', './http:/x', '-', '/data/x.jsonl'].some(isRemote)).toBe(false);
    expect(isRemoteFolder('s3://bucket/prefix/')).toBe(true);
    expect(isRemoteFolder('s3://bucket/prefix/file.jsonl')).toBe(false);
    expect(isRemoteFolder('http://host/dir/')).toBe(false);
  });

  it('locates S3 objects and the hub resolve URL (revision, HF_ENDPOINT, HF_TOKEN as Bearer)', () => {
    expect(locate('s3://bucket/a/b.jsonl')).toEqual({ kind: 's3', bucket: 'bucket', key: 'a/b.jsonl' });
    expect(locate('hf://datasets/org/name/data/x.jsonl', {})).toEqual({ kind: 'http', url: 'https://huggingface.co/datasets/org/name/resolve/main/data/x.jsonl' });
    expect(locate('hf://datasets/org/name@v2/x y.jsonl', { HF_ENDPOINT: 'http://mirror/', HF_TOKEN: 'hf_abcdef' })).toEqual({ kind: 'http', url: 'http://mirror/datasets/org/name/resolve/v2/x%20y.jsonl', auth: 'Bearer hf_abcdef' });
    expect(() => locate('hf://models/org/name/x')).toThrow(/hf:\/\/datasets\/ORG\/NAME\/PATH/);
  });

  it('takes a URL\'s user and password out of its name and uses them as Basic credentials', () => {
    const name = withoutCredentials('https://reader:p%40ss@host.example/c.jsonl');
    expect(name).toBe('https://host.example/c.jsonl');
    expect(locate(name)).toEqual({ kind: 'http', url: name, auth: `Basic ${Buffer.from('reader:p@ss').toString('base64')}` });
    expect(withoutCredentials('s3://bucket/key')).toBe('s3://bucket/key');
  });

  it('redacts passwords in addresses, tokens and secret keys', () => {
    const env = { HF_TOKEN: 'hf_secret123', AWS_SECRET_ACCESS_KEY: 'awsSecretKey' };
    expect(safe('http://u:pw@h/x failed with hf_secret123 and awsSecretKey', env)).toBe('http://***@h/x failed with *** and ***');
  });
});
