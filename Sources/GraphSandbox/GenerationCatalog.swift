/// Fixed word lists of the tenant generator: departments with their job titles, guest home domains,
/// meeting-room sites and shared mailboxes.
enum GenerationCatalog {
    static let departments: [(String, [String])] = [
        (
            "Engineering",
            [
                "Software Engineer", "Senior Software Engineer", "Principal Engineer", "Engineering Manager",
                "QA Engineer", "DevOps Engineer",
            ]
        ),
        (
            "Sales",
            ["Account Executive", "Sales Representative", "Regional Sales Director", "Sales Operations Analyst"]
        ),
        ("Marketing", ["Marketing Specialist", "Product Marketing Manager", "Content Strategist"]),
        ("Finance", ["Accountant", "Financial Analyst", "Controller", "Payroll Specialist"]),
        ("Human Resources", ["HR Business Partner", "Recruiter", "HR Generalist"]),
        ("Legal", ["Legal Counsel", "Paralegal", "Compliance Officer"]),
        ("Operations", ["Operations Manager", "Logistics Coordinator", "Supply Chain Analyst"]),
        ("Customer Support", ["Support Engineer", "Customer Success Manager", "Support Specialist"]),
        ("IT", ["Systems Administrator", "IT Support Technician", "Network Engineer", "Security Analyst"]),
        ("Research & Development", ["Research Scientist", "Lab Technician", "R&D Manager"]),
        ("Facilities", ["Facilities Coordinator", "Office Manager"]),
    ]

    static let guestDomains = [
        "fabrikam.com", "northwindtraders.com", "adatum.com", "tailspintoys.com", "wingtiptoys.com", "gmail.com",
        "outlook.com",
    ]

    static let roomSites: [(String, String, String, String)] = [
        ("Room", "Oslo", "oslo", "Oslo"),
        ("Besprechungsraum", "München", "munchen", "München"),
        ("Room", "Seattle", "seattle", "Seattle 18"),
        ("Salle", "Paris", "paris", "Paris"),
        ("会議室", "東京", "tokyo", "東京"),
        ("Møterom", "Bergen", "bergen", "Bergen"),
        ("Room", "London", "london", "London"),
        ("Sala", "Madrid", "madrid", "Madrid"),
    ]

    static let sharedMailboxes: [(String, String)] = [
        ("Shared: Payroll", "payroll"),
        ("Helpdesk", "helpdesk"),
        ("Shared: Recruiting", "recruiting"),
        ("Info Contoso", "info"),
        ("Reception Berlin", "reception.berlin"),
        ("Invoices / Rechnungen", "invoices"),
        ("Support Team", "support"),
    ]
}
