// SPDX-License-Identifier: Apache-2.0
public import Imaging

/// One of `count` disjoint parts of a batch (`scan --shard index/count`), chosen by a stable
/// hash of each file's path, so that machines can split a batch without talking to each other.
///
/// A file belongs to shard `mix(fnv1a64(path)) % count`: the 64-bit FNV-1a hash of the path's
/// bytes exactly as given on the command line or in the list, or as found by walking a folder
/// (folder as given + `/` + entry names), then MurmurHash3's 64-bit finalizer (`fmix64`) so that
/// every bit of the hash counts in the remainder (plain FNV-1a's low bits depend only on the low
/// bits of each byte). Every file lands in exactly one shard; a file's shard depends on its path
/// alone, so adding or removing other files never moves it; `IMG_0001.jpg` and
/// `./IMG_0001.jpg` are different paths and may land in different shards.
///
/// Index counts from 0: `0/4`, `1/4`, `2/4`, `3/4` cover a batch. Sources: FNV-1a as published by
/// Fowler, Noll and Vo (offset basis 0xcbf29ce484222325, prime 0x100000001b3);
/// `fmix64` from Austin Appleby's MurmurHash3.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// Which shard, `0..<count`.
    public let index: Int
    /// How many shards the batch is split into, at least 1.
    public let count: Int

    /// Shard `index` of `count`; `0 <= index < count` (the caller checks user input first).
    public init(index: Int, count: Int) {
        precondition(count >= 1 && (0..<count).contains(index), "Shard: index \(index) outside 0..<\(count)")
        self.index = index
        self.count = count
    }

    /// `index/count`, as `--shard` takes it.
    public var description: String { "\(index)/\(count)" }

    /// Whether the file at `path` belongs to this shard.
    public func contains(_ path: RawPath) -> Bool { Self.shard(of: path, count: count) == index }

    /// The shard (`0..<count`) that `path` belongs to when a batch is split into `count`.
    public static func shard(of path: RawPath, count: Int) -> Int {
        precondition(count >= 1, "Shard: count \(count) below 1")
        return Int(fmix64(fnv1a64(path.bytes)) % UInt64(count))
    }

    /// The 64-bit FNV-1a hash of `bytes`: start at 0xcbf29ce484222325; for each byte, xor it in,
    /// then multiply by 0x100000001b3 (modulo 2^64).
    public static func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// MurmurHash3's 64-bit finalizer: xor-shifts and two multiplications that spread every
    /// input bit over the whole word.
    public static func fmix64(_ value: UInt64) -> UInt64 {
        var k = value
        k ^= k >> 33
        k &*= 0xff51_afd7_ed55_8ccd
        k ^= k >> 33
        k &*= 0xc4ce_b9fe_1a85_ec53
        k ^= k >> 33
        return k
    }
}
