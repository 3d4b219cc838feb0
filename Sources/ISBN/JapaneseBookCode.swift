// SPDX-License-Identifier: Apache-2.0
/// The second barcode of a Japanese book (書籍JANコード, the second row): `192` + the 4-digit
/// C-code (分類コード) + the price in yen before tax (5 digits) + the EAN-13 check digit.
///
/// `191` is the older form whose price included consumption tax; a price of `00000` means
/// 100,000 yen or more. The C-code's digits are the audience (販売対象), the format (発行形態) and
/// the subject (内容, two digits), named in Japanese as the table gives them and in English.
///
/// It is not an ISBN: the ISBN is the first barcode of the pair (978-4…).
///
/// Source: the C-code table (分類コード表) of the Japan ISBN Agency (日本図書コード管理センター,
/// https://isbn.jpo.or.jp/), in 「ISBNコード/日本図書コード/書籍JANコード利用の手引き」. Its names
/// here are those of the copies that reproduce it whole or in part, which agree with each other
/// and with this table entry by entry: blog.naosan.jp/2014/01/3187/ (audiences, formats, subjects
/// 00–34), geibishobo.com/?p=1998 (audiences, formats), soei-pb.co.jp/column/soeibunko013
/// (audiences, subjects 00–16), recommended-reading.net/ccode/97/ (audiences, formats 0–3). The
/// table leaves subject numbers such as 03, 13 or 99 unused (``subject`` is `nil` for them).
public struct JapaneseBookCode: Sendable, Hashable, CustomStringConvertible {
    /// The 13 digits as read (`1920095015002`).
    public let code: String
    /// The 4-digit C-code (`0095`).
    public let cCode: String
    /// The price in yen, or `nil` for `00000` (100,000 yen or more).
    public let priceYen: Int?
    /// `true` for the older `191` form, whose price includes consumption tax.
    public let taxIncluded: Bool

    /// The code in `data` (13 digits, `191`/`192`, valid check digit), or `nil` for any other.
    public init?(ean data: String) {
        guard let digits = EAN.digitValues(data), digits.count == 13, digits[0] == 1, digits[1] == 9,
              digits[2] == 1 || digits[2] == 2, EAN.hasValidCheckDigit(digits) else { return nil }
        code = data
        let characters = Array(data)
        cCode = String(characters[3..<7])
        let price = Int(String(characters[7..<12]))!
        priceYen = price == 0 ? nil : price
        taxIncluded = digits[2] == 1
    }

    /// A name in Japanese and English.
    public struct Meaning: Sendable, Hashable {
        public let ja: String
        public let en: String
    }

    /// 販売対象, from the C-code's first digit (`0` 一般 General).
    public var audience: Meaning? { Self.audiences[Int(String(cCode.first!))!] }
    /// 発行形態, from its second digit (`0` 単行本 Monograph).
    public var format: Meaning? { Self.formats[Int(String(Array(cCode)[1]))!] }
    /// 内容, from its last two digits (`95` 日本文学、評論、随筆、その他), or `nil` for a number the table leaves unused.
    public var subject: Meaning? { Self.subjects[Int(String(cCode.suffix(2)))!] }

    /// `C-code 0095 一般/単行本/日本文学、評論、随筆、その他 (General/Monograph/Japanese literature: criticism, essays, other), 1500 yen before tax`.
    public var description: String {
        let parts = [audience, format, subject]
        let ja = parts.map { $0?.ja ?? "?" }.joined(separator: "/"), en = parts.map { $0?.en ?? "?" }.joined(separator: "/")
        return "C-code \(cCode) \(ja) (\(en)), \(priceText)"
    }

    /// `1500 yen before tax`, `1500 yen tax included` (191), `100000 yen or more`.
    public var priceText: String {
        guard let priceYen else { return "100000 yen or more" }
        return "\(priceYen) yen " + (taxIncluded ? "tax included" : "before tax")
    }

    static let audiences: [Int: Meaning] = [
        0: .init(ja: "一般", en: "General"), 1: .init(ja: "教養", en: "Liberal arts"), 2: .init(ja: "実用", en: "Practical"),
        3: .init(ja: "専門", en: "Specialist"),
        4: .init(ja: "検定教科書・消費税非課税品・その他", en: "Authorised textbooks, tax-exempt items, other"),
        5: .init(ja: "婦人", en: "Women"), 6: .init(ja: "学参I（小中）", en: "Study aids I (primary and junior high school)"),
        7: .init(ja: "学参II（高校）", en: "Study aids II (high school)"), 8: .init(ja: "児童", en: "Children"),
        9: .init(ja: "雑誌扱い", en: "Handled as a magazine"),
    ]

    static let formats: [Int: Meaning] = [
        0: .init(ja: "単行本", en: "Monograph"), 1: .init(ja: "文庫", en: "Bunko (pocket paperback)"),
        2: .init(ja: "新書", en: "Shinsho (paperback)"), 3: .init(ja: "全集・双書", en: "Collected works, series"),
        4: .init(ja: "ムック・その他", en: "Mook, other"), 5: .init(ja: "事・辞典", en: "Dictionary, encyclopedia"),
        6: .init(ja: "図鑑", en: "Illustrated reference"), 7: .init(ja: "絵本", en: "Picture book"),
        8: .init(ja: "磁性媒体など", en: "Magnetic media and the like"), 9: .init(ja: "コミック", en: "Comic"),
    ]

    static let subjects: [Int: Meaning] = [
        0: .init(ja: "総記", en: "General works"), 1: .init(ja: "百科事典", en: "Encyclopedias"),
        2: .init(ja: "年鑑・雑誌", en: "Yearbooks, periodicals"), 4: .init(ja: "情報科学", en: "Information science"),
        10: .init(ja: "哲学", en: "Philosophy"), 11: .init(ja: "心理（学）", en: "Psychology"), 12: .init(ja: "倫理（学）", en: "Ethics"),
        14: .init(ja: "宗教", en: "Religion"), 15: .init(ja: "仏教", en: "Buddhism"), 16: .init(ja: "キリスト教", en: "Christianity"),
        20: .init(ja: "歴史総記", en: "History, general"), 21: .init(ja: "日本歴史", en: "Japanese history"),
        22: .init(ja: "外国歴史", en: "History of other countries"), 23: .init(ja: "伝記", en: "Biography"),
        25: .init(ja: "地理", en: "Geography"), 26: .init(ja: "旅行", en: "Travel"),
        30: .init(ja: "社会科学総記", en: "Social sciences, general"), 31: .init(ja: "政治－含む国防軍事", en: "Politics, defence included"),
        32: .init(ja: "法律", en: "Law"), 33: .init(ja: "経済・財政・統計", en: "Economics, finance, statistics"),
        34: .init(ja: "経営", en: "Management"), 36: .init(ja: "社会", en: "Society"), 37: .init(ja: "教育", en: "Education"),
        39: .init(ja: "民族・風習", en: "Folklore, customs"),
        40: .init(ja: "自然科学総記", en: "Natural sciences, general"), 41: .init(ja: "数学", en: "Mathematics"),
        42: .init(ja: "物理学", en: "Physics"), 43: .init(ja: "化学", en: "Chemistry"), 44: .init(ja: "天文・地学", en: "Astronomy, earth sciences"),
        45: .init(ja: "生物学", en: "Biology"), 47: .init(ja: "医学・歯学・薬学", en: "Medicine, dentistry, pharmacy"),
        50: .init(ja: "工学・工学総記", en: "Engineering, general"), 51: .init(ja: "土木", en: "Civil engineering"),
        52: .init(ja: "建築", en: "Architecture"), 53: .init(ja: "機械", en: "Mechanical engineering"),
        54: .init(ja: "電気", en: "Electrical engineering"), 55: .init(ja: "電子通信", en: "Electronics, telecommunications"),
        56: .init(ja: "海事", en: "Maritime"), 57: .init(ja: "採鉱・冶金", en: "Mining, metallurgy"),
        58: .init(ja: "その他の工業", en: "Other industries"),
        60: .init(ja: "産業総記", en: "Industry, general"), 61: .init(ja: "農林業", en: "Agriculture, forestry"),
        62: .init(ja: "水産業", en: "Fisheries"), 63: .init(ja: "商業", en: "Commerce"), 65: .init(ja: "交通・通信", en: "Transport, communications"),
        70: .init(ja: "芸術総記", en: "Arts, general"), 71: .init(ja: "絵画・彫刻", en: "Painting, sculpture"),
        72: .init(ja: "写真・工芸", en: "Photography, crafts"), 73: .init(ja: "音楽・舞踊", en: "Music, dance"),
        74: .init(ja: "演劇・映画", en: "Theatre, film"), 75: .init(ja: "体育・スポーツ", en: "Physical education, sports"),
        76: .init(ja: "諸芸・娯楽", en: "Hobbies, entertainment"), 77: .init(ja: "家事", en: "Home economics"),
        78: .init(ja: "日記・手帳", en: "Diaries, notebooks"), 79: .init(ja: "コミックス・劇画", en: "Comics, gekiga"),
        80: .init(ja: "語学総記", en: "Languages, general"), 81: .init(ja: "日本語", en: "Japanese language"),
        82: .init(ja: "英米語", en: "English language"), 84: .init(ja: "ドイツ語", en: "German language"),
        85: .init(ja: "フランス語", en: "French language"), 87: .init(ja: "各国語", en: "Other languages"),
        90: .init(ja: "文学総記", en: "Literature, general"), 91: .init(ja: "日本文学総記", en: "Japanese literature, general"),
        92: .init(ja: "日本文学詩歌", en: "Japanese poetry"), 93: .init(ja: "日本文学、小説・物語", en: "Japanese fiction"),
        95: .init(ja: "日本文学、評論、随筆、その他", en: "Japanese literature: criticism, essays, other"),
        97: .init(ja: "外国文学小説", en: "Foreign fiction"), 98: .init(ja: "外国文学、その他", en: "Foreign literature, other"),
    ]
}
