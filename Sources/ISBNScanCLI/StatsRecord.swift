// SPDX-License-Identifier: Apache-2.0
import Catalog
import Records

/// `catalog stats --json`.
struct StatsRecord: JSONRecord {
    let stats: Catalog.Statistics
    init(_ stats: Catalog.Statistics) { self.stats = stats }
    var json: JSONValue {
        func counts(_ d: [String: Int]) -> JSONValue { .object(d.sorted { $0.key < $1.key }.map { .init($0.key, .int($0.value)) }) }
        return .object(["books": .int(stats.books), "sightings": .int(stats.sightings), "camera_sightings": .int(stats.cameraSightings),
                        "files": counts(stats.files), "refusals": counts(stats.refusals),
                        "first_seen": .optional(stats.firstSeen), "last_seen": .optional(stats.lastSeen)])
    }
}
