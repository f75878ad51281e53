import type { Command } from 'commander';
import { policyJsonSchema } from '../../policy/schema.js';
import type { CommandContext } from '../io.js';

export function registerSchema(program: Command, { io }: CommandContext): void {
  program
    .command('schema')
    .description('Print the JSON Schema of policy files (for editors).')
    .action(() => io.stdout(`${JSON.stringify(policyJsonSchema(), null, 2)}\n`));
}
