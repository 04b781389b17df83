/// The cultures a generated tenant mixes: weighted so most people have Latin-script names, as in a
/// European/US company, while every script the product must render (Cyrillic, Greek, Arabic, CJK) appears.
extension Culture {
    static let catalog: [Culture] = [
        Culture(
            language: "en-US",
            givenNames: names([
                "James", "Mary", "Olivia", "Liam", "Emma", "Noah", "Ava", "Ethan", "Madison", "Tyler", "Grace",
                "Dwayne", "Keisha", "Adele", "Megan", "Zoë", "Renée", "José",
            ]),
            surnames: names([
                "Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "O'Brien", "O'Connor",
                "Anderson", "Vance", "Bowen", "Washington", "D'Angelo", "McAllister", "Nguyen", "Lee-Chambers",
            ]),
            order: .givenFirst,
            offices: [
                Office(
                    location: "Seattle 18/2111", city: "Seattle", state: "WA", country: "United States",
                    usageLocation: "US", postalCode: "98101", street: "1 Contoso Way", company: "Contoso Ltd."),
                Office(
                    location: "Redmond 36/1012", city: "Redmond", state: "WA", country: "United States",
                    usageLocation: "US", postalCode: "98052", street: "4567 Main St", company: "Contoso Ltd."),
                Office(
                    location: "New York 7.210", city: "New York", state: "NY", country: "United States",
                    usageLocation: "US", postalCode: "10001", street: "350 Fifth Avenue", company: "Contoso Ltd."),
            ],
            phoneFormats: ["+1 425 555 01##", "(425) 555-01##", "425-555-01##", "+1 (212) 555-01##"],
            mobileFormats: ["+1 206 555 01##", "(206) 555-01##", "+12065550###"],
            weight: 22),
        Culture(
            language: "en-GB",
            givenNames: names(["Oliver", "Amelia", "Harry", "Isla", "Siobhán", "Seán", "Niamh", "Rhys", "Ffion"]),
            surnames: names(["Taylor", "Evans", "Thomas", "Wright", "Ó Súilleabháin", "MacDonald", "Fitzgerald"]),
            order: .givenFirst,
            offices: [
                Office(
                    location: "London 3.14", city: "London", state: nil, country: "United Kingdom",
                    usageLocation: "GB", postalCode: "EC2A 4NE", street: "10 Finsbury Square",
                    company: "Contoso UK Ltd."),
                Office(
                    location: "Dublin 2F", city: "Dublin", state: nil, country: "Ireland",
                    usageLocation: "IE", postalCode: "D02 X285", street: "1 Grand Canal Quay",
                    company: "Contoso Ireland DAC"),
            ],
            phoneFormats: ["+44 20 7946 0###", "020 7946 0###", "+353 1 555 0###"],
            mobileFormats: ["+44 7700 900###", "07700 900###"],
            weight: 8),
        Culture(
            language: "de-DE",
            givenNames: names([
                "Jürgen", "Günther", "Käthe", "Jörg", "Sabine", "Stefan", "Ursula", "Björn", "Maximilian", "Anke",
                "Hans-Peter", "Lena",
            ]),
            surnames: names([
                "Müller", "Schröder", "Weiß", "Groß", "Bäcker", "Schmidt", "Köhler", "Fuß", "von Bülow", "Meyer",
                "Schäfer", "Hoffmann",
            ]),
            order: .givenFirst,
            offices: [
                Office(
                    location: "Berlin B2.041", city: "Berlin", state: "Berlin", country: "Germany",
                    usageLocation: "DE", postalCode: "10117", street: "Friedrichstraße 68", company: "Contoso GmbH"),
                Office(
                    location: "München 5.12", city: "München", state: "Bayern", country: "Germany",
                    usageLocation: "DE", postalCode: "80331", street: "Marienplatz 8", company: "Contoso GmbH"),
            ],
            phoneFormats: ["+49 30 1234###", "+49 (0)89 123 456 ##", "030 1234 ###", "+49 30 12345-###"],
            mobileFormats: ["+49 151 1234 ####", "0170 123####"],
            weight: 9),
        Culture(
            language: "fr-FR",
            givenNames: names(["François", "Zoë", "Hélène", "Chloé", "Benoît", "Gérard", "Anne-Marie", "Loïc", "Inès"]),
            surnames: names(["Lefèvre", "Dubois", "Moreau", "Girard", "Bézier", "Lemaître", "Duchâteau", "Fauré"]),
            order: .givenFirst,
            offices: [
                Office(
                    location: "Paris 4e étage", city: "Paris", state: "Île-de-France", country: "France",
                    usageLocation: "FR", postalCode: "75008", street: "12 rue de la Paix", company: "Contoso SAS")
            ],
            phoneFormats: ["+33 1 23 45 ## ##", "01 23 45 ## ##"],
            mobileFormats: ["+33 6 12 34 ## ##", "06 12 34 ## ##"],
            weight: 6),
        Culture(
            language: "es-ES",
            givenNames: names(["José", "María", "Lucía", "Álvaro", "Iñaki", "Begoña", "João", "Conceição", "Raúl"]),
            surnames: names(["García Márquez", "Núñez", "Peña", "Fernández", "Muñoz", "Ibáñez", "Gonçalves"]),
            order: .givenFirst,
            offices: [
                Office(
                    location: "Madrid P3", city: "Madrid", state: "Madrid", country: "Spain",
                    usageLocation: "ES", postalCode: "28013", street: "Calle Gran Vía 28", company: "Contoso Iberia SL")
            ],
            phoneFormats: ["+34 91 123 ## ##", "+351 21 123 ####"],
            mobileFormats: ["+34 612 34 ## ##"],
            weight: 5),
        Culture(
            language: "pl-PL",
            givenNames: names(["Łukasz", "Małgorzata", "Grzegorz", "Żaneta", "Paweł", "Agnieszka", "Wojciech"]),
            surnames: names(["Wójcik", "Kowalski", "Zieliński", "Dąbrowska", "Wiśniewski", "Łuczak", "Szczęsny"]),
            order: .givenFirst,
            offices: [
                Office(
                    location: "Warszawa 7.03", city: "Warszawa", state: "mazowieckie", country: "Poland",
                    usageLocation: "PL", postalCode: "00-001", street: "ul. Marszałkowska 142",
                    company: "Contoso Polska Sp. z o.o.")
            ],
            phoneFormats: ["+48 22 123 ## ##", "22 123 ## ##"],
            mobileFormats: ["+48 601 234 ###"],
            weight: 5),
        Culture(
            language: "da-DK",
            givenNames: names(["Søren", "Bjørn", "Åse", "Mette", "Jørgen", "Sigrid", "Ægir", "Solveig", "Kjell"]),
            surnames: names(["Mikkelsen", "Kjærgaard", "Ødegård", "Ærø", "Sørensen", "Bråten", "Haugen", "Løvstad"]),
            order: .givenFirst,
            offices: [
                Office(
                    location: "Oslo 4.12", city: "Oslo", state: nil, country: "Norway", usageLocation: "NO",
                    postalCode: "0150", street: "Karl Johans gate 22", company: "Contoso Norge AS"),
                Office(
                    location: "København 2.1", city: "København", state: nil, country: "Denmark",
                    usageLocation: "DK", postalCode: "1050", street: "Kongens Nytorv 3",
                    company: "Contoso Danmark ApS"),
            ],
            phoneFormats: ["+47 22 12 ## ##", "+45 33 12 ## ##"],
            mobileFormats: ["+47 412 34 ###", "+45 20 12 ## ##"],
            weight: 4),
        Culture(
            language: "sv-SE",
            givenNames: names(["Åsa", "Björn", "Märta", "Örjan", "Pekka", "Päivi", "Guðrún", "Þór"]),
            surnames: names(["Jääskeläinen", "Söderström", "Lindqvist", "Åkesson", "Guðmundsdóttir", "Ólafsson"]),
            order: .givenFirst,
            offices: [
                Office(
                    location: "Stockholm 3B", city: "Stockholm", state: nil, country: "Sweden", usageLocation: "SE",
                    postalCode: "111 52", street: "Drottninggatan 33", company: "Contoso Sverige AB")
            ],
            phoneFormats: ["+46 8 123 ### ##", "08-123 ### ##"],
            mobileFormats: ["+46 70 123 ## ##"],
            weight: 3),
        Culture(
            language: "tr-TR",
            givenNames: names(["Gökhan", "İlknur", "Çağla", "Şükrü", "Ömer", "Ayşe"]),
            surnames: names(["Çelik", "Şahin", "Yılmaz", "Öztürk", "Doğan"]),
            order: .givenFirst,
            offices: [
                Office(
                    location: "İstanbul 12", city: "İstanbul", state: nil, country: "Türkiye", usageLocation: "TR",
                    postalCode: "34394", street: "Büyükdere Cd. 185", company: "Contoso Türkiye A.Ş.")
            ],
            phoneFormats: ["+90 212 123 ## ##"],
            mobileFormats: ["+90 532 123 ## ##"],
            weight: 2),
        Culture(
            language: "cs-CZ",
            givenNames: names(["Šárka", "Tomáš", "Jiří", "Lucie", "Ondřej"]),
            surnames: names(["Dvořák", "Novák", "Černá", "Procházka", "Kučera"]),
            order: .givenFirst,
            offices: [
                Office(
                    location: "Praha 5.20", city: "Praha", state: nil, country: "Czechia", usageLocation: "CZ",
                    postalCode: "110 00", street: "Václavské náměstí 1", company: "Contoso s.r.o.")
            ],
            phoneFormats: ["+420 221 123 ###"],
            mobileFormats: ["+420 601 123 ###"],
            weight: 1),
        Culture(
            language: "vi-VN",
            givenNames: names(["Văn An", "Thị Hoa", "Minh Tuấn", "Thu Trang"]),
            surnames: names(["Nguyễn", "Trần", "Phạm", "Lê"]),
            order: .surnameFirst(separator: " "),
            offices: [
                Office(
                    location: "Hà Nội 8", city: "Hà Nội", state: nil, country: "Vietnam", usageLocation: "VN",
                    postalCode: "100000", street: "Tràng Tiền 1", company: "Contoso Vietnam")
            ],
            phoneFormats: ["+84 24 1234 ####"],
            mobileFormats: ["+84 91 234 ## ##"],
            weight: 1),
        Culture(
            language: "ru-RU",
            givenNames: names([
                "Дмитрий|Dmitry", "Екатерина|Ekaterina", "Ольга|Olga", "Сергей|Sergey", "Наталья|Natalya",
                "Олександр|Oleksandr", "Юлия|Yulia", "Алексей|Alexey",
            ]),
            surnames: names([
                "Иванов|Ivanov", "Смирнова|Smirnova", "Кузнецов|Kuznetsov", "Шевченко|Shevchenko",
                "Попова|Popova", "Соколов|Sokolov", "Михайлова|Mikhailova",
            ]),
            order: .givenFirst,
            offices: [
                Office(
                    location: "Київ 9", city: "Київ", state: nil, country: "Ukraine", usageLocation: "UA",
                    postalCode: "01001", street: "вул. Хрещатик 22", company: "Contoso Ukraine"),
                Office(
                    location: "Sofia 2.07", city: "Sofia", state: nil, country: "Bulgaria", usageLocation: "BG",
                    postalCode: "1000", street: "бул. Витоша 1", company: "Contoso Bulgaria EOOD"),
            ],
            phoneFormats: ["+380 44 123 ## ##", "+359 2 123 ####", "+7 495 123-##-##"],
            mobileFormats: ["+380 67 123 ## ##", "+359 88 123 ####"],
            weight: 5),
        Culture(
            language: "el-GR",
            givenNames: names([
                "Γιώργος|Giorgos", "Ελένη|Eleni", "Νίκος|Nikos", "Μαρία|Maria", "Κωνσταντίνος|Konstantinos",
                "Αικατερίνη|Aikaterini",
            ]),
            surnames: names([
                "Παπαδόπουλος|Papadopoulos", "Αλεξίου|Alexiou", "Οικονόμου|Oikonomou", "Γεωργίου|Georgiou",
                "Βλάχου|Vlachou",
            ]),
            order: .givenFirst,
            offices: [
                Office(
                    location: "Αθήνα 3", city: "Αθήνα", state: nil, country: "Greece", usageLocation: "GR",
                    postalCode: "105 57", street: "Ερμού 10", company: "Contoso Hellas")
            ],
            phoneFormats: ["+30 21 0123 ####", "210 123 ####"],
            mobileFormats: ["+30 69 1234 ####"],
            weight: 3),
        Culture(
            language: "ar-AE",
            givenNames: names([
                "محمد|Mohammed", "فاطمة|Fatima", "أحمد|Ahmed", "ليلى|Layla", "يوسف|Youssef", "نور|Nour",
                "עדי|Adi", "יעל|Yael",
            ]),
            surnames: names([
                "العلي|Alali", "حسن|Hassan", "الهاشمي|Alhashimi", "منصور|Mansour", "כהן|Cohen", "לוי|Levi",
            ]),
            order: .givenFirst,
            offices: [
                Office(
                    location: "Dubai DIC 5", city: "دبي", state: nil, country: "United Arab Emirates",
                    usageLocation: "AE", postalCode: "00000", street: "Dubai Internet City, Building 5",
                    company: "Contoso Middle East FZ-LLC")
            ],
            phoneFormats: ["+971 4 123 ####", "+972 3-123-####"],
            mobileFormats: ["+971 50 123 ####"],
            weight: 3),
        Culture(
            language: "ja-JP",
            givenNames: names(["花子|Hanako", "太郎|Taro", "陽菜|Hina", "翔|Sho", "美咲|Misaki", "健一|Kenichi"]),
            surnames: names(["佐藤|Sato", "鈴木|Suzuki", "高橋|Takahashi", "田中|Tanaka", "渡辺|Watanabe"]),
            order: .surnameFirst(separator: " "),
            offices: [
                Office(
                    location: "東京 12F", city: "東京", state: "東京都", country: "Japan", usageLocation: "JP",
                    postalCode: "100-0005", street: "丸の内 1-1-1", company: "Contoso Japan KK")
            ],
            phoneFormats: ["+81 3-1234-####", "03-1234-####"],
            mobileFormats: ["+81 90-1234-####", "090-1234-####"],
            weight: 3),
        Culture(
            language: "zh-CN",
            givenNames: names(["伟|Wei", "芳|Fang", "娜|Na", "秀英|Xiuying", "强|Qiang", "静|Jing"]),
            surnames: names(["王|Wang", "李|Li", "张|Zhang", "刘|Liu", "陈|Chen", "欧阳|Ouyang"]),
            order: .surnameFirst(separator: ""),
            offices: [
                Office(
                    location: "上海 28F", city: "上海", state: "上海市", country: "China", usageLocation: "CN",
                    postalCode: "200120", street: "世纪大道 100号", company: "Contoso China Co., Ltd.")
            ],
            phoneFormats: ["+86 21 1234 ####", "+86 10 1234 ####"],
            mobileFormats: ["+86 139 1234 ####"],
            weight: 3),
        Culture(
            language: "ko-KR",
            givenNames: names(["민준|Minjun", "서연|Seoyeon", "지훈|Jihoon", "수빈|Subin"]),
            surnames: names(["김|Kim", "이|Lee", "박|Park", "최|Choi"]),
            order: .surnameFirst(separator: ""),
            offices: [
                Office(
                    location: "서울 15F", city: "서울", state: nil, country: "South Korea", usageLocation: "KR",
                    postalCode: "04524", street: "세종대로 110", company: "Contoso Korea")
            ],
            phoneFormats: ["+82 2-1234-####"],
            mobileFormats: ["+82 10-1234-####"],
            weight: 2),
        Culture(
            language: "en-IN",
            givenNames: names(["Priya", "Arjun", "Ananya", "Rahul", "Deepika", "Vikram", "Lakshmi"]),
            surnames: names(["Sharma", "Patel", "Iyer", "Reddy", "Venkataraman", "Banerjee"]),
            order: .givenFirst,
            offices: [
                Office(
                    location: "Bengaluru 6A", city: "Bengaluru", state: "Karnataka", country: "India",
                    usageLocation: "IN", postalCode: "560001", street: "MG Road 1", company: "Contoso India Pvt. Ltd.")
            ],
            phoneFormats: ["+91 80 1234 ####", "080-1234 ####"],
            mobileFormats: ["+91 98450 1####"],
            weight: 5),
    ]
}
