import type { Config } from '../../../config.ts';

export type LlmConfig = NonNullable<Config['llm']>;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export class LlmError extends Error {}

/** One chat completion from any OpenAI-compatible endpoint (`{baseUrl}/chat/completions`). */
export async function chatCompletion(
  llm: LlmConfig,
  messages: ChatMessage[],
  opts: { timeoutMs?: number; maxTokens?: number; signal?: AbortSignal } = {},
): Promise<string> {
  const signals = [AbortSignal.timeout(opts.timeoutMs ?? 60_000), ...(opts.signal ? [opts.signal] : [])];
  let res: Response;
  try {
    res = await fetch(`${llm.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(llm.apiKey ? { Authorization: `Bearer ${llm.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: llm.model, messages, temperature: 0.2, max_tokens: opts.maxTokens ?? 600 }),
      signal: AbortSignal.any(signals),
    });
  } catch (err) {
    throw new LlmError(`LLM endpoint unreachable: ${(err as Error).message}`);
  }
  if (!res.ok) throw new LlmError(`LLM endpoint answered ${res.status}`);
  const body = (await res.json().catch(() => null)) as { choices?: { message?: { content?: unknown } }[] } | null;
  const content = body?.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || !content.trim()) throw new LlmError('LLM endpoint gave no answer');
  return content.trim();
}
