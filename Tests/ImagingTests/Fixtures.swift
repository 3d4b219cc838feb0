import Foundation

/// `TestImages/` of this checkout, found from this file's path.
let testImages = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("TestImages").path
