// SPDX-License-Identifier: Apache-2.0
/// How hard to try on an image where the first scan finds nothing.
public enum Effort: String, Sendable, CaseIterable {
    /// zbar scans of the image as it is (sparse, then every line).
    case fast
    /// When those find no EAN-13/EAN-8: smoothing, the per-digit line decoder, two tone curves, contrast
    /// stretch, local thresholding, inversion (plain and smoothed), half/quarter size, and
    /// ±30° rotations (with zbar's column scans these cover barcodes at any angle up to 90°
    /// in most photos).
    case normal
    /// Everything in `normal`, plus rotations of ±15°, ±45°, ±60°, 2× upscaling (modules
    /// under 2 pixels) and inverted rotations of ±15°, ±30°, ±45°.
    case thorough
}
