#!/usr/bin/env node
// The EVM half of scripts/interop/wasp-evm.sh: ethers v6 against a Wasp 1.0.3 chain's JSON-RPC
// (docs/evm.md). Development tool, not part of the test suite: it needs the running chain.
//
//   node scripts/interop/wasp-evm.mjs <jsonRpcUrl> <evmChainId> <privateKey> <dir with node_modules/ethers> [--store 0x…]
//
// Checks, one ok/FAIL line each: eth_chainId; the key's balance (the deposit made with
// wasp-cli); a value transfer to a fresh address, its receipt (status 1) and both balances
// after it (sender: before − value − gas used × gas price; recipient: the value); then a tiny
// storage contract deployed, its setter called (receipt status 1) and its getter read back,
// printing `store: <address>`. With --store (a second run, after Wasp restarted) the contract
// at that address is read instead (value() still 42) and none is deployed. Exit code 0 when
// every check passed.

import { createRequire } from 'node:module';
import { join } from 'node:path';

const [url, chainIdText, privateKey, ethersDir, storeFlag, storeAddress] = process.argv.slice(2);
if (
  !url ||
  !chainIdText ||
  !privateKey ||
  !ethersDir ||
  (storeFlag !== undefined && (storeFlag !== '--store' || !storeAddress))
) {
  console.error('usage: wasp-evm.mjs <jsonRpcUrl> <evmChainId> <privateKey> <ethersDir> [--store 0x…]');
  process.exit(2);
}
const require = createRequire(join(ethersDir, 'package.json'));
const { Contract, ContractFactory, JsonRpcProvider, Wallet, formatEther, parseEther } = require('ethers');

// A minimal storage contract. Store.sol (the source, byte for byte, including its licence line):
//
//   // SPDX-License-Identifier: MIT
//   pragma solidity ^0.8.0;
//
//   contract Store {
//       uint256 public value;
//
//       function set(uint256 v) external {
//           value = v;
//       }
//   }
//
// compiled ahead with solc-js 0.8.19 (npm `solc@0.8.19`: standard JSON, optimizer on with 200
// runs, evmVersion "paris", so no PUSH0 whatever EVM revision the chain runs); the creation
// bytecode below ends with solc's metadata hash of that source.
const STORE_ABI = ['function value() view returns (uint256)', 'function set(uint256 v)'];
const STORE_BYTECODE =
  '0x608060405234801561001057600080fd5b5060b18061001f6000396000f3fe6080604052348015600f57600080fd5b506004361060325760003560e01c80633fa4f24514603757806360fe47b1146051575b600080fd5b603f60005481565b60405190815260200160405180910390f35b6061605c3660046063565b600055565b005b600060208284031215607457600080fd5b503591905056fea26469706673582212202167195a13c291310531479090fd65a60b49261bb98b3450ce13db684545654f64736f6c63430008130033';

let failures = 0;
function report(ok, what) {
  if (!ok) failures += 1;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
}
const seconds = (start) => ((Date.now() - start) / 1000).toFixed(1);

async function main() {
  const chainId = BigInt(chainIdText);
  // staticNetwork: no network probe before each call (the chain id is checked below);
  // cacheTimeout -1: ethers would otherwise answer a repeated call made within 250 ms from
  // its cache (a balance read again right after a fast receipt, the nonce of the next
  // transaction) instead of asking the chain.
  const provider = new JsonRpcProvider(url, undefined, {
    staticNetwork: true,
    cacheTimeout: -1,
    polling: true,
    pollingInterval: 500,
  });
  const rpcChainId = BigInt(await provider.send('eth_chainId', []));
  report(rpcChainId === chainId, `evm: eth_chainId ${rpcChainId} (deployed with --evm-chainid ${chainId})`);

  const wallet = new Wallet(privateKey, provider);
  const before = await provider.getBalance(wallet.address);
  report(before > 0n, `evm: ${wallet.address} holds ${formatEther(before)}`);

  const to = Wallet.createRandom().address;
  const value = parseEther('1.5');
  let start = Date.now();
  const tx = await wallet.sendTransaction({ to, value });
  const receipt = await tx.wait(1, 120_000);
  const receiptS = seconds(start);
  report(
    receipt?.status === 1,
    `evm: transfer of ${formatEther(value)} to ${to}: tx ${tx.hash} in block ${receipt?.blockNumber}, receipt status ${receipt?.status} after ${receiptS} s`,
  );
  const [after, received] = await Promise.all([provider.getBalance(wallet.address), provider.getBalance(to)]);
  const fee = receipt ? receipt.gasUsed * receipt.gasPrice : 0n;
  report(
    received === value && after === before - value - fee,
    `evm: balances after: recipient ${formatEther(received)}, sender ${formatEther(after)} (= ${formatEther(before)} − ${formatEther(value)} − fee ${formatEther(fee)}: ${after === before - value - fee})`,
  );
  console.log(`figure: transfer receipt ${receiptS} s`);

  if (storeAddress !== undefined) {
    const value = await new Contract(storeAddress, STORE_ABI, provider).value();
    report(value === 42n, `evm: Store at ${storeAddress} still holds value() → ${value}`);
    return;
  }
  start = Date.now();
  const factory = new ContractFactory(STORE_ABI, STORE_BYTECODE, wallet);
  const contract = await factory.deploy();
  const deployed = await contract.deploymentTransaction().wait(1, 120_000);
  const address = await contract.getAddress();
  report(
    deployed?.status === 1,
    `evm: Store deployed at ${address} (receipt status ${deployed?.status} after ${seconds(start)} s, ${deployed?.gasUsed} gas)`,
  );
  start = Date.now();
  const set = await contract.set(42n);
  const setReceipt = await set.wait(1, 120_000);
  const setS = seconds(start);
  const read = await contract.value();
  report(
    setReceipt?.status === 1 && read === 42n,
    `evm: Store.set(42) receipt status ${setReceipt?.status} after ${setS} s, Store.value() → ${read}`,
  );
  console.log(`store: ${address}`);
}

main().then(
  () => process.exit(failures === 0 ? 0 : 1),
  (e) => {
    const cause = e.error?.message ?? e.info?.error?.message;
    console.log(`FAIL evm: ${e.shortMessage ?? e.message}${cause ? ` (${cause})` : ''}`);
    process.exit(1);
  },
);
