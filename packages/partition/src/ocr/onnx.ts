import { availableParallelism } from 'node:os';
import { isMainThread } from 'node:worker_threads';
import type { InferenceSession } from 'onnxruntime-node';

/**
 * ONNX Runtime, loaded only when a model is first used (it is a large native module) and shared by the
 * OCR engine and user-supplied layout models.
 */
export type OnnxRuntime = typeof import('onnxruntime-node');

let runtime: Promise<OnnxRuntime> | undefined;

export function loadOnnxRuntime(): Promise<OnnxRuntime> {
  runtime ??= import('onnxruntime-node').then((module) => (module.default ?? module) as OnnxRuntime);
  return runtime;
}

/**
 * Threads per model call. In a worker thread of the page pool each thread already owns a core, so one
 * intra-op thread avoids oversubscription; on the main thread the runtime may use every core.
 * DOCSVC_ONNX_THREADS overrides both.
 */
export function onnxThreads(): number {
  const configured = Number.parseInt(process.env.DOCSVC_ONNX_THREADS ?? '', 10);
  if (Number.isFinite(configured) && configured > 0) return configured;
  return isMainThread ? Math.max(1, availableParallelism()) : 1;
}

export interface SessionSettings {
  /**
   * Keep ONNX Runtime's CPU memory arena (default): freed tensors stay reserved for the next call. Off,
   * memory goes back after each call, which suits models kept loaded in every pool worker between pages.
   */
  memoryArena?: boolean;
}

export async function createSession(
  source: string | Uint8Array,
  settings: SessionSettings = {},
): Promise<InferenceSession> {
  const ort = await loadOnnxRuntime();
  const threads = onnxThreads();
  const options: InferenceSession.SessionOptions = {
    enableCpuMemArena: settings.memoryArena ?? true,
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionProviders: ['cpu'],
    // By default idle intra-op threads spin waiting for work. Measured on PP-OCR recognition with two
    // threads on a shared 2-core machine: 1.9× the CPU of one thread when they spin, 1.3× when they
    // sleep, and spinning was not faster. CPU burnt spinning is taken from other work.
    ...(threads > 1 ? { extra: { session: { 'intra_op.allow_spinning': '0' } } } : {}),
  };
  return typeof source === 'string'
    ? ort.InferenceSession.create(source, options)
    : ort.InferenceSession.create(source, options);
}
