import { describe, expect, it } from 'vitest';
import { openS3Storage } from '../../server/storage/s3';
import {
  MIN_PART_SIZE,
  parseStorageUrl,
  S3_DEFAULTS,
  S3ConfigError,
  s3Settings,
} from '../../server/storage/s3-config';

describe('STORAGE_URL', () => {
  it('gives the bucket and a prefix that is empty or ends in a slash', () => {
    expect(parseStorageUrl('s3://uploads')).toEqual({ bucket: 'uploads', prefix: '' });
    expect(parseStorageUrl('s3://uploads/')).toEqual({ bucket: 'uploads', prefix: '' });
    expect(parseStorageUrl('s3://uploads/hushdrop')).toEqual({ bucket: 'uploads', prefix: 'hushdrop/' });
    expect(parseStorageUrl('s3://my.bucket-1/a/b/')).toEqual({ bucket: 'my.bucket-1', prefix: 'a/b/' });
  });

  it.each([
    ['file:///var/lib/hushdrop', /must look like s3:\/\/<bucket>\/<prefix>/],
    ['s3://', /must look like/],
    ['s3://Upper/x', /not a valid S3 bucket name/],
    ['s3://ab/x', /not a valid S3 bucket name/],
    ['s3://bucket/../x', /'\.' or '\.\.'/],
    ['s3://bucket/x?y', /must look like/],
  ])('refuses %s with a sentence', (url, message) => {
    expect(() => parseStorageUrl(url)).toThrow(S3ConfigError);
    expect(() => parseStorageUrl(url)).toThrow(message);
  });
});

describe('settings from the SDK variables', () => {
  it('reads the endpoint, region and keys', () => {
    const settings = s3Settings('s3://b1x/p', {
      AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:7480',
      AWS_ENDPOINT_URL: 'http://ignored:1',
      AWS_REGION: 'eu-central-1',
      AWS_ACCESS_KEY_ID: 'AK',
      AWS_SECRET_ACCESS_KEY: 'SK',
    });
    expect(settings).toMatchObject({
      bucket: 'b1x',
      prefix: 'p/',
      endpoint: 'http://127.0.0.1:7480',
      region: 'eu-central-1',
      credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' },
      ...S3_DEFAULTS,
    });
  });

  it('falls back to AWS_ENDPOINT_URL, us-east-1 and the SDK’s own credential sources', () => {
    const settings = s3Settings('s3://b1x', { AWS_ENDPOINT_URL: 'https://s3.example.net' });
    expect(settings.endpoint).toBe('https://s3.example.net');
    expect(settings.region).toBe('us-east-1');
    expect(settings.credentials).toBeUndefined();
    expect(s3Settings('s3://b1x', {}).endpoint).toBeUndefined();
  });

  it('passes a session token along', () => {
    const settings = s3Settings('s3://b1x', {
      AWS_ACCESS_KEY_ID: 'AK',
      AWS_SECRET_ACCESS_KEY: 'SK',
      AWS_SESSION_TOKEN: 'T',
    });
    expect(settings.credentials).toEqual({ accessKeyId: 'AK', secretAccessKey: 'SK', sessionToken: 'T' });
  });

  it.each([
    [{ AWS_ACCESS_KEY_ID: 'AK' }, /AWS_SECRET_ACCESS_KEY is not/],
    [{ AWS_SECRET_ACCESS_KEY: 'SK' }, /AWS_ACCESS_KEY_ID is not/],
    [{ AWS_ENDPOINT_URL_S3: 'ftp://x' }, /AWS_ENDPOINT_URL_S3 must be an http/],
    [{ AWS_ENDPOINT_URL: 'not a url' }, /AWS_ENDPOINT_URL must be an http/],
  ])('refuses %o with a sentence', (env, message) => {
    expect(() => s3Settings('s3://b1x', env)).toThrow(message);
  });

  it('keeps parts at least 5 MiB and at least one in flight', () => {
    expect(() => s3Settings('s3://b1x', {}, { partSize: MIN_PART_SIZE - 1 })).toThrow(
      /at least 5242880 bytes/,
    );
    expect(() => s3Settings('s3://b1x', {}, { partsInFlight: 0 })).toThrow(/At least one part/);
    expect(s3Settings('s3://b1x', {}, { partSize: MIN_PART_SIZE }).partSize).toBe(MIN_PART_SIZE);
  });
});

describe('the store’s description (start message, logs)', () => {
  it('names bucket, prefix and endpoint, without credentials written into the endpoint', async () => {
    const storage = openS3Storage(
      s3Settings('s3://b1x/pre', { AWS_ENDPOINT_URL_S3: 'http://user:secret@127.0.0.1:7480/' }),
    );
    expect(storage.description).toBe('s3://b1x/pre/ at http://127.0.0.1:7480');
    await storage.close();
    const aws = openS3Storage(s3Settings('s3://b1x', { AWS_REGION: 'eu-west-1' }));
    expect(aws.description).toBe('s3://b1x/ in eu-west-1');
    await aws.close();
  });
});
