import { loadCliConfig } from './cliConfig';

describe('loadCliConfig', () => {
  it('answers the settings, or null after saying what is wrong with them', () => {
    const said: string[] = [];
    expect(loadCliConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/x' }, (t) => said.push(t))?.dataDir).toBe('/tmp/x');
    expect(loadCliConfig({ NODE_ENV: 'test', PORT: 'nope' }, (t) => said.push(t))).toBeNull();
    expect(said).toEqual([expect.stringContaining('PORT')]);
  });
});
