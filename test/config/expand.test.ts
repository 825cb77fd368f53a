import { describe, it, expect } from 'vitest';
import { ConfigError, expandEnv, expandEnvDeep } from '../../src/config/index.js';

const env = { HOME: '/home/u', TOKEN: 'abc', EMPTY: '' };

describe('expandEnv', () => {
  it('expands ${VAR}, several per string', () => {
    expect(expandEnv('${HOME}/bin:${TOKEN}', env, 'f')).toBe('/home/u/bin:abc');
  });

  it('uses a default when the variable is unset or empty, including an empty default', () => {
    expect(expandEnv('${NOPE:-fallback}', env, 'f')).toBe('fallback');
    expect(expandEnv('${EMPTY:-fallback}', env, 'f')).toBe('fallback');
    expect(expandEnv('x${NOPE:-}y', env, 'f')).toBe('xy');
    expect(expandEnv('${TOKEN:-fallback}', env, 'f')).toBe('abc');
    expect(expandEnv('${NOPE:-http://a:1/b}', env, 'f')).toBe('http://a:1/b');
  });

  it('expands a set but empty variable without default to the empty string', () => {
    expect(expandEnv('[${EMPTY}]', env, 'f')).toBe('[]');
  });

  it('accepts VS Code ${env:VAR}', () => {
    expect(expandEnv('${env:TOKEN}', env, 'f')).toBe('abc');
  });

  it('leaves $ without { and non-references alone', () => {
    expect(expandEnv('$HOME costs $5 ${1} ${a b} $', env, 'f')).toBe('$HOME costs $5 ${1} ${a b} $');
  });

  it('throws a ConfigError naming the variable and the field for an unset variable', () => {
    let caught: unknown;
    try {
      expandEnv('Bearer ${GITHUB_TOKEN}', env, 'headers.Authorization');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const err = caught as ConfigError;
    expect(err.field).toBe('headers.Authorization');
    expect(err.message).toContain('"GITHUB_TOKEN" is not set');
    expect(err.message).toMatch(/^field "headers.Authorization": /);
  });

  it('rejects VS Code ${input:...} with a hint', () => {
    expect(() => expandEnv('${input:api-key}', env, 'env.KEY')).toThrow(/VS Code input variable/);
  });
});

describe('expandEnvDeep', () => {
  it('expands strings in nested arrays and objects, not keys, and leaves other values alone', () => {
    const value = { '${HOME}': ['${TOKEN}', 1, true, null, { deep: '${HOME}' }] };
    expect(expandEnvDeep(value, env, 'x')).toEqual({ '${HOME}': ['abc', 1, true, null, { deep: '/home/u' }] });
  });

  it('does not mutate its input', () => {
    const value = { a: ['${TOKEN}'] };
    expandEnvDeep(value, env, 'x');
    expect(value).toEqual({ a: ['${TOKEN}'] });
  });

  it('reports the nested path of a missing variable', () => {
    expect(() => expandEnvDeep(['ok', 'also', '${MISSING}'], env, 'args')).toThrow(/field "args\[2\]": environment variable "MISSING"/);
    expect(() => expandEnvDeep({ 'X-Key': '${MISSING}' }, env, 'headers')).toThrow(/field "headers.X-Key"/);
    expect(() => expandEnvDeep({ 'a b': '${MISSING}' }, env, 'env')).toThrow(/field "env\[\\"a b\\"\]"/);
  });
});
