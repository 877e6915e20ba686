"""People: a user's powers are their memberships (a role per organisation), nothing else.

Django's groups and per-user permissions are gone from the back office: they would grant
powers in every organisation at once (``trips.access``). A superuser manages people here.
"""

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import Group, User
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice
from django_otp_webauthn.models import WebAuthnAttestation, WebAuthnCredential

from trips.models import AccountEvent, Membership
from trips.services.twofactor import second_factor_disable


class UserMembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    fields = ["organisation", "role"]
    verbose_name_plural = "roles (each holds in its organisation only)"


class PeopleAdmin(UserAdmin):
    fieldsets = [
        (None, {"fields": ("username", "password")}),
        ("Personal info", {"fields": ("first_name", "last_name", "email")}),
        ("Access", {"fields": ("is_active", "is_staff", "is_superuser")}),
        ("Important dates", {"fields": ("last_login", "date_joined")}),
    ]
    list_filter = ["is_staff", "is_superuser", "is_active", "memberships__role"]
    filter_horizontal = ()
    inlines = [UserMembershipInline]
    actions = ["second_factor_reset"]

    @admin.action(description="Reset two-factor sign-in (lost phone and recovery codes)")
    def second_factor_reset(self, request, queryset):
        """Remove every device of the selected people, each recorded as an account event; they enrol again."""
        for user in queryset:
            second_factor_disable(user=user, actor=request.user)
        self.message_user(
            request,
            f"Two-factor sign-in reset for {queryset.count()} people: they set it up again at their next sign-in.",
            messages.SUCCESS,
        )


@admin.register(AccountEvent)
class AccountEventAdmin(admin.ModelAdmin):
    """Changes to a person's own data and sign-in (profile, companions, erasure, second factor):
    read-only, field names and counts only, no secrets."""

    list_display = ["created_at", "user", "type", "actor", "payload"]
    list_filter = ["type"]
    search_fields = ["user__username"]
    list_select_related = ["user"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


# Devices are changed only through trips.services.twofactor (each change is an account event):
# not as raw rows in the admin, where a TOTP key could be read and nothing would be recorded.
for model in (Group, User, TOTPDevice, StaticDevice, WebAuthnCredential, WebAuthnAttestation):
    if admin.site.is_registered(model):
        admin.site.unregister(model)
admin.site.register(User, PeopleAdmin)
