/* scan_types.c — names and labels of the scanner's types (see scan.h). */
#include <strings.h>

#include "scan/scan.h"

typedef struct type_info {
    const char *name;
    const char *label; /* the reference's labels for its four; ours in its style for the rest */
} type_info;

static const type_info types[RP_SCAN_N_TYPES] = {
    [RP_SCAN_SSN] = {"ssn", "Social Security Number (US)"},
    [RP_SCAN_CREDIT_CARD] = {"credit_card", "Credit Card Number"},
    [RP_SCAN_EMAIL] = {"email", "Email Address"},
    [RP_SCAN_PHONE] = {"phone", "Phone Number"},
    [RP_SCAN_IBAN] = {"iban", "IBAN"},
    [RP_SCAN_IP_ADDRESS] = {"ip_address", "IP Address"},
    [RP_SCAN_PASSPORT_US] = {"passport_us", "US Passport Number"},
    [RP_SCAN_DATE_OF_BIRTH] = {"date_of_birth", "Date of Birth"},
    [RP_SCAN_AWS_ACCESS_KEY_ID] = {"aws_access_key_id", "AWS Access Key ID"},
    [RP_SCAN_AWS_SECRET_ACCESS_KEY] = {"aws_secret_access_key", "AWS Secret Access Key"},
    [RP_SCAN_GITHUB_TOKEN] = {"github_token", "GitHub Token"},
    [RP_SCAN_GITLAB_TOKEN] = {"gitlab_token", "GitLab Token"},
    [RP_SCAN_SLACK_TOKEN] = {"slack_token", "Slack Token"},
    [RP_SCAN_SLACK_WEBHOOK] = {"slack_webhook", "Slack Webhook URL"},
    [RP_SCAN_STRIPE_KEY] = {"stripe_key", "Stripe Secret Key"},
    [RP_SCAN_GOOGLE_API_KEY] = {"google_api_key", "Google API Key"},
    [RP_SCAN_OPENAI_API_KEY] = {"openai_api_key", "OpenAI API Key"},
    [RP_SCAN_ANTHROPIC_API_KEY] = {"anthropic_api_key", "Anthropic API Key"},
    [RP_SCAN_NPM_TOKEN] = {"npm_token", "npm Token"},
    [RP_SCAN_PRIVATE_KEY] = {"private_key", "Private Key"},
    [RP_SCAN_JWT] = {"jwt", "JSON Web Token"},
    [RP_SCAN_URL_PASSWORD] = {"url_password", "Password in URL"},
    [RP_SCAN_GENERIC_SECRET] = {"generic_secret", "Secret Assignment"},
};

const char *rp_scan_type_name(rp_scan_type t)
{
    return (unsigned)t < RP_SCAN_N_TYPES ? types[t].name : "";
}

const char *rp_scan_type_label(rp_scan_type t)
{
    return (unsigned)t < RP_SCAN_N_TYPES ? types[t].label : "";
}

int rp_scan_type_from_name(const char *name)
{
    if (name == NULL)
        return -1;
    for (int i = 0; i < RP_SCAN_N_TYPES; i++)
        if (strcasecmp(name, types[i].name) == 0)
            return i;
    return -1;
}

bool rp_scan_type_is_secret(rp_scan_type t)
{
    return t >= RP_SCAN_FIRST_SECRET && t < RP_SCAN_N_TYPES;
}
