import express from 'express';
import type { Express } from 'express';

/**
 * The stack every hand-written bench app shares with the example app's `createApp`: no
 * `x-powered-by`, JSON and urlencoded body parsers (16 KiB). Only authentication differs.
 */
export function expressBase(): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '16kb' }));
  app.use(express.urlencoded({ extended: false, limit: '16kb' }));
  return app;
}
