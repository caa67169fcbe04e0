import { createHash } from 'node:crypto';
import { LINK_PROOF_HEADER, linkProof } from '@loggerhead/can/protocol/link-proof.ts';
import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import type { DeviceAgent, OperationContext, OperationResult } from './commands.ts';
import type { LoggerDevice } from './logger-device.ts';

/** Device codes of an upgrade (0 = flashed). */
export const UpgradeCodes = { invalid: 2, flashFailed: 3, busy: 409 } as const;

/**
 * Over-the-air upgrade on the simulated logger: downloads the image from the URL in the
 * command (with the device's proof of it), reports progress, verifies size and SHA-256 (a mismatch is `invalid`, nothing is
 * flashed), "flashes" it and announces the new version in its status.
 */
export class FirmwareSlot {
  version: string;
  image: Uint8Array | null = null;
  private busy = false;
  /** Tests: make the flash step fail after a good download. */
  failFlash = false;

  constructor(
    private readonly device: LoggerDevice,
    version = device.opts.firmware ?? 'sim-1.0.0',
  ) {
    this.version = version;
  }

  attach(agent: DeviceAgent) {
    agent.on('common_fn.firmware_upgrade', (p, ctx) => this.upgrade(p, ctx));
  }

  async upgrade(p: Record<string, unknown>, ctx: OperationContext): Promise<OperationResult> {
    if (this.busy) return { code: UpgradeCodes.busy, message: 'upgrade already running', payload: { state: 'busy' } };
    this.busy = true;
    try {
      const url = String(p.url ?? '');
      const size = Number(p.size);
      // The link opens for this device alone: its proof, made with its key, goes with the request.
      const res = await fetch(url, { headers: { [LINK_PROOF_HEADER]: linkProof(this.device.opts.key, url) } });
      if (!res.ok || !res.body)
        return { code: UpgradeCodes.flashFailed, message: `download failed: HTTP ${res.status}`, payload: { state: 'flash failed' } };
      const parts: Uint8Array[] = [];
      let got = 0;
      let reported = -1;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        parts.push(chunk);
        got += chunk.length;
        const pct = size > 0 ? Math.floor((got / size) * 80) : 0;
        if (pct >= reported + 20) {
          reported = pct;
          await ctx.progress({ state: 'busy', progress: pct });
        }
      }
      const image = Buffer.concat(parts);
      const sha = createHash('sha256').update(image).digest('hex');
      if (image.length !== size || sha !== p.sha256)
        return { code: UpgradeCodes.invalid, message: `image check failed (${image.length} bytes)`, payload: { state: 'invalid' } };
      await ctx.progress({ state: 'busy', progress: 90 });
      if (this.failFlash) return { code: UpgradeCodes.flashFailed, message: 'flash write error', payload: { state: 'flash failed' } };
      this.image = image;
      this.version = String(p.version);
      await this.device.client?.publishAsync(
        upTopic(this.device.opts.deviceId, 'status'),
        JSON.stringify({ online: true, firmware: this.version }),
        { qos: 1 },
      );
      return { code: 0, payload: { state: 'flash success', version: this.version } };
    } finally {
      this.busy = false;
    }
  }
}
