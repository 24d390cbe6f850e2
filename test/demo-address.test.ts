// `npm run demo` announces the address its server listens on (scripts/demo-address.mjs): the shell's HOST and
// PORT first, then the project's env/dev, then 127.0.0.1:8000.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

type DemoAddress = (processEnv: Record<string, string | undefined>, envFileText: string | null) => string;

async function demoAddress(): Promise<DemoAddress> {
  const module = (await import(pathToFileURL(path.join(REPO, 'scripts', 'demo-address.mjs')).href)) as { demoAddress: DemoAddress };
  return module.demoAddress;
}

const ENV_DEV = 'APP_ENV=dev\nHOST=127.0.0.1\nPORT=8000 # the default\nSSL_CERTFILE=\nSSL_KEYFILE=\n';

test('PORT=18100 in the shell gives port 18100, whatever env/dev says', async () => {
  const address = await demoAddress();
  assert.is(address({ PORT: '18100' }, ENV_DEV), 'http://127.0.0.1:18100');
  assert.is(address({ HOST: '127.0.0.5', PORT: '18101' }, ENV_DEV), 'http://127.0.0.5:18101');
});

test("without HOST or PORT in the shell, env/dev's values, then the defaults", async () => {
  const address = await demoAddress();
  assert.is(address({}, 'HOST="127.0.0.3"\nPORT=8123 # changed\n'), 'http://127.0.0.3:8123');
  assert.is(address({}, ENV_DEV), 'http://127.0.0.1:8000');
  assert.is(address({}, null), 'http://127.0.0.1:8000');
});

test('https when both certificate files are set', async () => {
  const address = await demoAddress();
  assert.is(address({ SSL_CERTFILE: 'c.pem' }, `${ENV_DEV}SSL_KEYFILE=k.pem\n`), 'https://127.0.0.1:8000');
});

test.run();
