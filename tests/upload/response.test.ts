import { describe, expect, it } from 'vitest';
import { parseUploadResponse, UploadError, type UploadErrorKind } from '../../lib/upload';

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

const legacyBody = {
  result: {
    url: 'https://teknik.example/x32YI.png?sub=u',
    fileName: 'x32YI.png',
    contentType: 'image/png',
    contentLength: 1234,
    key: null,
    keySize: 256,
    iv: 'AbCdEfGh01234567',
    blockSize: 128,
    maxDownloads: 0,
    expirationDate: '2019-01-21T10:15:30.1234567-08:00',
    deletionKey: 'abcdefghijklmnopqrstuvwx',
  },
};

function failure(status: number, contentType: string | null, body: string): UploadError {
  try {
    parseUploadResponse('current', status, contentType, body);
  } catch (error) {
    expect(error).toBeInstanceOf(UploadError);
    return error as UploadError;
  }
  throw new Error('no error');
}

function expectKind(error: UploadError, kind: UploadErrorKind) {
  expect(error.kind).toBe(kind);
  expect(error.message).toMatch(/^[A-Z]/);
  expect(error.message).not.toMatch(/JSON|undefined|null/);
}

describe('successful answers', () => {
  it('legacy: every member, with maxDownloads and expirationDate', () => {
    expect(parseUploadResponse('legacy', 200, JSON_TYPE, JSON.stringify(legacyBody))).toEqual({
      url: 'https://teknik.example/x32YI.png?sub=u',
      fileName: 'x32YI.png',
      contentType: 'image/png',
      contentLength: 1234,
      keySize: 256,
      iv: 'AbCdEfGh01234567',
      blockSize: 128,
      maxDownloads: 0,
      expirationDate: '2019-01-21T10:15:30.1234567-08:00',
      deletionKey: 'abcdefghijklmnopqrstuvwx',
    });
  });

  it('current: no maxDownloads or expirationDate even if the server sends them', () => {
    const result = parseUploadResponse('current', 200, JSON_TYPE, JSON.stringify(legacyBody));
    expect(result).not.toHaveProperty('maxDownloads');
    expect(result).not.toHaveProperty('expirationDate');
    expect(result.deletionKey).toBe('abcdefghijklmnopqrstuvwx');
  });

  it('treats an empty deletionKey as absent and leaves null members out', () => {
    const body = {
      result: {
        url: 'https://u.teknik.example/aB3dE.txt#abcdefghijklmnopqrstuvwxyzABCDEF',
        fileName: 'aB3dE.txt',
        contentType: 'text/plain',
        contentLength: 5,
        key: 'abcdefghijklmnopqrstuvwxyzABCDEF',
        keySize: 256,
        iv: null,
        blockSize: 128,
        maxDownloads: null,
        expirationDate: null,
        deletionKey: '',
      },
    };
    const legacy = parseUploadResponse('legacy', 200, JSON_TYPE, JSON.stringify(body));
    expect(legacy).toEqual({
      url: 'https://u.teknik.example/aB3dE.txt#abcdefghijklmnopqrstuvwxyzABCDEF',
      fileName: 'aB3dE.txt',
      contentType: 'text/plain',
      contentLength: 5,
      key: 'abcdefghijklmnopqrstuvwxyzABCDEF',
      keySize: 256,
      blockSize: 128,
    });
    expect(Object.keys(legacy)).not.toContain('deletionKey');
    expect(Object.keys(legacy)).not.toContain('iv');
  });

  it('reads maxDownloads for a views-limited legacy upload', () => {
    const body = { result: { ...legacyBody.result, maxDownloads: 3, expirationDate: null } };
    const result = parseUploadResponse('legacy', 200, JSON_TYPE, JSON.stringify(body));
    expect(result.maxDownloads).toBe(3);
    expect(result).not.toHaveProperty('expirationDate');
  });

  it('takes the file name from the URL if the server leaves it out, and fills missing numbers with 0', () => {
    const body = { result: { url: 'https://u.teknik.example/wlLmp.7z' }, error: null };
    expect(parseUploadResponse('current', 200, null, JSON.stringify(body))).toEqual({
      url: 'https://u.teknik.example/wlLmp.7z',
      fileName: 'wlLmp.7z',
      contentType: 'application/octet-stream',
      contentLength: 0,
      keySize: 0,
      blockSize: 0,
    });
  });

  it('accepts any 2xx status', () => {
    expect(parseUploadResponse('current', 201, JSON_TYPE, JSON.stringify(legacyBody)).fileName).toBe(
      'x32YI.png',
    );
  });
});

describe('refusals and errors', () => {
  it('HTTP 200 with {error:{message}} is a refusal quoting the server', () => {
    const error = failure(200, JSON_TYPE, JSON.stringify({ error: { message: 'Uploads are Disabled' } }));
    expectKind(error, 'rejected');
    expect(error.message).toBe('The server refused the upload: Uploads are Disabled.');
    expect(error.serverMessage).toBe('Uploads are Disabled');
    expect(error.status).toBe(200);
  });

  it('keeps markup out of the sentence but the raw text in serverMessage', () => {
    const raw = 'Virus Detected: <a href="https://evil.example">EICAR</a>.';
    const error = failure(200, JSON_TYPE, JSON.stringify({ error: { message: raw } }));
    expect(error.message).toBe('The server refused the upload: Virus Detected: EICAR.');
    expect(error.serverMessage).toBe(raw);
  });

  it('cuts a very long refusal short in the sentence', () => {
    const raw = 'x'.repeat(5000);
    const error = failure(200, JSON_TYPE, JSON.stringify({ error: { message: raw } }));
    expect(error.message.length).toBeLessThan(260);
    expect(error.serverMessage).toBe(raw);
  });

  it('a refusal without a message still says the server refused', () => {
    const error = failure(200, JSON_TYPE, JSON.stringify({ error: {} }));
    expectKind(error, 'rejected');
    expect(error.serverMessage).toBeUndefined();
  });

  it('413 is too-large, with the server’s JSON message if any', () => {
    const error = failure(
      413,
      JSON_TYPE,
      JSON.stringify({ error: { message: 'File Too Large.  Max file size is 1 MB' } }),
    );
    expectKind(error, 'too-large');
    expect(error.status).toBe(413);
    expect(error.serverMessage).toBe('File Too Large.  Max file size is 1 MB');
    expectKind(failure(413, HTML_TYPE, '<h1>Request Entity Too Large</h1>'), 'too-large');
  });

  it('401 and 403 are unauthorized and point at the username and token', () => {
    for (const status of [401, 403]) {
      const error = failure(
        status,
        JSON_TYPE,
        JSON.stringify({ error: { type: 'Http', status, message: 'Unauthorized' } }),
      );
      expectKind(error, 'unauthorized');
      expect(error.message).toMatch(/username and token/);
      expect(error.status).toBe(status);
      expect(error.serverMessage).toBe('Unauthorized');
    }
  });

  it('other statuses are http errors naming the status; HTML is never taken as a message', () => {
    const html = failure(
      500,
      HTML_TYPE,
      '<html><body><h1>Server Error</h1><script>alert(1)</script></body></html>',
    );
    expectKind(html, 'http');
    expect(html.status).toBe(500);
    expect(html.message).toContain('500');
    expect(html.serverMessage).toBeUndefined();
    expect(html.message).not.toContain('<');

    const json = failure(
      502,
      JSON_TYPE,
      JSON.stringify({ error: { type: 'Http', status: 502, message: 'Bad Gateway' } }),
    );
    expectKind(json, 'http');
    expect(json.serverMessage).toBe('Bad Gateway');

    const notFound = failure(404, HTML_TYPE, '<h1>Page Not Found</h1>');
    expectKind(notFound, 'http');
    expect(notFound.message).toMatch(/404.*address/);

    const plain = failure(400, 'text/plain', 'Missing boundary\n');
    expectKind(plain, 'http');
    expect(plain.message).toContain('400');
    expect(plain.serverMessage).toBe('Missing boundary');
  });

  it('a 200 that is not an upload result is a bad response', () => {
    const bodies = [
      '<html><body>Welcome</body></html>',
      '',
      '{"result":',
      'null',
      '[]',
      '{}',
      '{"result":null}',
      '{"result":{}}',
      '{"result":{"url":""}}',
      '{"result":{"url":42}}',
      '{"result":{"url":"javascript:alert(1)"}}',
      '{"result":{"url":"not a url"}}',
    ];
    for (const body of bodies) {
      const error = failure(200, body.startsWith('<') ? HTML_TYPE : JSON_TYPE, body);
      expectKind(error, 'bad-response');
      expect(error.status).toBe(200);
      expect(error.serverMessage).toBeUndefined();
    }
  });
});
