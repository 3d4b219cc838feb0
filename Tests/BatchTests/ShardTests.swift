// SPDX-License-Identifier: Apache-2.0
import Testing
import Imaging
import Batch

@Suite struct ShardTests {
    /// The published FNV-1a 64 test vectors (Fowler/Noll/Vo).
    @Test(arguments: [("", 0xcbf2_9ce4_8422_2325 as UInt64), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8)])
    func fnv1a64MatchesTheReferenceVectors(text: String, hash: UInt64) {
        #expect(Shard.fnv1a64(Array(text.utf8)) == hash)
    }

    /// Pinned values (computed independently in Python, see README "Batches on many machines"):
    /// changing the hash would silently reshuffle every user's shards.
    @Test func shardOfAPathIsPinned() {
        #expect(Shard.fmix64(Shard.fnv1a64(Array("photos/IMG_0001.jpg".utf8))) == 0xfb9b_91f1_6abb_b08f)
        #expect(Shard.shard(of: RawPath("photos/IMG_0001.jpg"), count: 4) == 3)
        #expect(Shard.shard(of: RawPath("photos/IMG_0002.jpg"), count: 4) == 2)
        #expect(Shard.shard(of: RawPath("photos/IMG_0001.jpg"), count: 1000) == 799)
        // Bytes, not text: a Latin-1 name hashes its own bytes.
        let latin1 = RawPath(bytes: Array("/data/books/caf".utf8) + [0xE9] + Array(".jpg".utf8))
        #expect(Shard.shard(of: latin1, count: 4) == 1)
        #expect(Shard(index: 3, count: 4).contains(RawPath("photos/IMG_0001.jpg")))
        #expect(!Shard(index: 2, count: 4).contains(RawPath("photos/IMG_0001.jpg")))
    }

    @Test func everyPathIsInExactlyOneShardAndTheShardsAreEven() {
        let paths = (0..<10_000).map { RawPath("shelf/IMG_\(String($0 + 10_000).dropFirst()).jpg") }
        var sizes = [0, 0, 0, 0]
        for path in paths {
            let owners = (0..<4).filter { Shard(index: $0, count: 4).contains(path) }
            #expect(owners.count == 1)
            sizes[owners.first ?? 0] += 1
        }
        #expect(sizes == [2461, 2533, 2547, 2459])
        #expect(paths.allSatisfy { Shard(index: 0, count: 1).contains($0) })
    }
}
