#!/usr/bin/env node
import '../dist/main/cli.js';
