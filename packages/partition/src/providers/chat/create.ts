import { invalidOption } from '../../errors.js';
import { createAnthropicChatModel } from './anthropic-chat.js';
import { createBedrockChatModel } from './bedrock-chat.js';
import { createOpenAiChatModel } from './openai-chat.js';
import { CHAT_PROVIDERS, type ChatModel, type ChatModelSettings, type ChatProvider } from './types.js';
import { createVertexChatModel } from './vertex-chat.js';

/** Build the chat model for a provider; every OpenAI-style server shares one client. */
export function createChatModel(settings: ChatModelSettings): ChatModel {
  switch (settings.provider) {
    case 'anthropic':
      return createAnthropicChatModel(settings);
    case 'bedrock':
      return createBedrockChatModel(settings);
    case 'vertexai':
      return createVertexChatModel(settings);
    default:
      return createOpenAiChatModel(settings);
  }
}

/** Names users write for the same provider (ingest spellings, product names). */
const ALIASES: Record<string, ChatProvider> = {
  azure: 'azure-openai',
  azure_openai: 'azure-openai',
  openai_compatible: 'openai-compatible',
  vertex: 'vertexai',
  'vertex-ai': 'vertexai',
  google: 'vertexai',
  aws: 'bedrock',
  'aws-bedrock': 'bedrock',
};

/** Validate a provider name from a free-text option; unknown names list the supported ones. */
export function parseChatProvider(value: string, optionName: string): ChatProvider {
  const normalised = value.trim().toLowerCase();
  if ((CHAT_PROVIDERS as readonly string[]).includes(normalised)) return normalised as ChatProvider;
  const alias = ALIASES[normalised];
  if (alias) return alias;
  const message = `Unknown provider "${value}". Supported: ${CHAT_PROVIDERS.join(', ')}.`;
  throw invalidOption(optionName, message);
}
