# Source: https://github.com/umami-hep/salt/blob/68bd045831b1ff2748f9cf86c0e0a406cba45f50/salt/utils/class_names.py (copied unchanged below this line)
CLASS_NAMES = {
    "ftagTruthOriginLabel": [
        "Pileup",
        "Fake",
        "Primary",
        "FromB",
        "FromBC",
        "FromC",
        "FromTau",
        "OtherSecondary",
    ],
    "ftagTruthTypeLabel": [
        "NoTruth",
        "Other",
        "Pion",
        "Kaon",
        "Electron",
        "Muon",
    ],
    "ftagTruthSourceLabel": [
        "NoTruth",
        "NotSecondary",
        "HadronicInteraction",
        "StrangeMesonDecay",
        "StrangeBaryonDecay",
        "GammaConversion",
        "Other",
    ],
}
